int nothing_here;
