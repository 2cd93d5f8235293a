# The kernel's Documentation/conf.py: the zero-config build of this
# tree reads comments as reST.
project = 'Demo'
