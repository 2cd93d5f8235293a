#include <x.h>
#define A(x) \
	(x + 1) /* c */
int f(char *s, ...) { return L"a\"b" + '\n' + 0x1fUL + 1e-3; }
// line \
 continued
/* open