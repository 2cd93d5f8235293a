# A Sphinx project as the kernel's Documentation/ is one: quire reads the
# plain assignments and never runs this file.
import os
project = 'Demo Kernel'
release = '6.1-demo'
version = os.environ.get('VERSION', 'computed')
