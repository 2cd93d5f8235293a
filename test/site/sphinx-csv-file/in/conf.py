project = 'CSV'
