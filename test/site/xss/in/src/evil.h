/**
 * evil_fn() - <script>alert('brief')</script> and "quotes'
 * @arg: <img src=x onerror=alert(1)> [x](javascript:alert(2))
 *
 * <script>alert(3)</script> `<script>` ``<b>`` &struct "foo
 *
 * Return: <a href="javascript:alert(4)" onclick="alert(5)">x</a>
 */
int evil_fn(int arg);

/**
 * struct evil - a struct with "quotes" & <tags>
 * @member: <style>body{display:none}</style>
 */
struct evil {
	int member;
};
