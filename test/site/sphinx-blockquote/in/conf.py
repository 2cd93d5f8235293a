project = 'Quotes'
