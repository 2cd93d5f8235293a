project = 'Links'
