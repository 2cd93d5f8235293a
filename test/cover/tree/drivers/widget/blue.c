// SPDX-License-Identifier: MIT
/**
 * blue_probe() - find a blue widget
 * @dev: the device
 * @id: its id
 */
int blue_probe(struct device *dev, int id)
{
	return 0;
}
EXPORT_SYMBOL_GPL(blue_probe);

int blue_remove(struct device *dev)
{
	return 0;
}
EXPORT_SYMBOL_GPL(blue_remove);
