# the kernel's settings for Sphinx's autosectionlabel, as its conf.py
# writes them
project = 'Sections'
extensions = [
    'sphinx.ext.autosectionlabel',
]
# Ensure that autosectionlabel will produce unique names
autosectionlabel_prefix_document = True
autosectionlabel_maxdepth = 2
