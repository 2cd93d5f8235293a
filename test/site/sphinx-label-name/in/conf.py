project = 'Labels'
