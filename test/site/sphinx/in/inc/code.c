first line
// BEGIN
kept line
// END
last line
