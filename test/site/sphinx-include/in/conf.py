project = 'Includes'
