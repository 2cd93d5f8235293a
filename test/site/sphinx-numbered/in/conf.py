project = 'Numbered'
