project = 'Captions'
