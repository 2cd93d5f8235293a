project = 'Include targets'
