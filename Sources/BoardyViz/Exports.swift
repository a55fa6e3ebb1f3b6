// What BoardyViz's API speaks of (`RenderFormat`, `Graph`, `GraphvizError`) comes from the
// internal BoardyGraphviz module: `import BoardyViz` brings it along.
@_exported import BoardyGraphviz
