# A Sphinx project with the kernel's graphs: kernel-figure of .dot files
# and kernel-render of DOT and SVG, as kfigure.py draws them.
project = 'Graphs'
