/**
 * DOC: topology
 *
 * The topology, drawn:
 *
 * .. kernel-figure:: sub/flow.dot
 *
 *    The flow, from a comment.
 */

/**
 * topo_add() - add a port
 * @n: how many
 *
 * Return: 0
 */
int topo_add(int n)
{
	return 0;
}
