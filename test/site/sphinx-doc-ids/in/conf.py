project = 'DOC ids'
