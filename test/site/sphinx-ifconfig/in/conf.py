project = 'Conditions'
