project = 'Terms'
