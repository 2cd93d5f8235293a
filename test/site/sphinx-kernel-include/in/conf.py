# A Sphinx project as the kernel's Documentation/ is one: quire reads the
# plain assignments and never runs this file.
project = 'Demo Kernel'
release = '6.1-demo'
