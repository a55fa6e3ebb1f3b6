// boardy-viz's C layer over Graphviz's public API (cgraph.h, gvc.h), for Graphviz 2.42 to 14.
//
// Swift calls only what this header declares: opaque handles and plain C types, so no Graphviz
// type (whose layout changes between versions) crosses into Swift, and every difference between
// versions is chosen in bvz_graphviz.c, in one place.
//
// Graphviz is not thread-safe: the caller serializes every call of this header behind one lock
// (GraphvizRenderer's). The process-wide state this file keeps (one GVC_t context, the buffer
// Graphviz's messages are collected in) is only touched under that lock.
#ifndef BVZ_GRAPHVIZ_H
#define BVZ_GRAPHVIZ_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A root graph being built, laid out and rendered (Graphviz's graph and our ID state).
typedef struct bvz_graph bvz_graph;

/// What an attribute or object belongs to (cgraph's AGRAPH, AGNODE, AGEDGE).
typedef enum {
    BVZ_KIND_GRAPH = 0,
    BVZ_KIND_NODE = 1,
    BVZ_KIND_EDGE = 2,
} bvz_kind;

/// The Graphviz version the build was compiled against ("14.1.3", "2.43.0").
const char *bvz_graphviz_compiled_version(void);

/// Starts a job: creates the process's Graphviz context on first use, clears the messages
/// collected so far and cgraph's sticky error count. Returns 0, or -1 without a context.
int bvz_begin(void);
/// The Graphviz version that is running (gvcVersion), or NULL before bvz_begin succeeded.
const char *bvz_graphviz_version(void);
/// Every message Graphviz reported since bvz_begin, as one text ("Error: ...\n..."), never NULL.
const char *bvz_messages(void);
/// Whether cgraph reported an error since bvz_begin.
int bvz_errors(void);

/// Opens a directed root graph named `name` whose objects get IDs in creation order, so output
/// never depends on memory addresses. NULL on failure.
bvz_graph *bvz_graph_open(const char *name);
/// Frees the layout, if any, and closes the graph. Returns 0 on success.
int bvz_graph_close(bvz_graph *graph);
/// The root graph (for attributes and as a parent of subgraphs).
void *bvz_graph_root(bvz_graph *graph);

/// The subgraph `name` of `parent` (the root or a subgraph), created if new.
void *bvz_subgraph(void *parent, const char *name);
/// Creates (or finds) the node `name` and puts it into `owner` (the root or a subgraph).
void *bvz_node(bvz_graph *graph, void *owner, const char *name);
/// The node named `name` in the root graph, or NULL: one hash lookup.
void *bvz_node_named(bvz_graph *graph, const char *name);
/// A new anonymous edge tail → head in the root graph (parallel edges stay apart).
void *bvz_edge(bvz_graph *graph, void *tail, void *head);

/// The attribute `name` for objects of `kind`, declared with default `def` if new (an existing
/// declaration keeps its default). NULL on failure.
void *bvz_declare(bvz_graph *graph, bvz_kind kind, const char *name, const char *def);
/// Declares the attribute `name` for objects of `kind` with default `def`, replacing the default
/// of an existing declaration (Graphviz's context gives every new graph a node label of "\\N").
void *bvz_declare_default(bvz_graph *graph, bvz_kind kind, const char *name, const char *def);
/// Sets a declared attribute of a node or edge. Returns 0 on success.
int bvz_set(void *object, void *attribute, const char *value);
/// Sets attribute `name` of a graph or subgraph, declaring it (default "") if new.
int bvz_set_graph(void *graph, const char *name, const char *value);

/// Lays the graph out with `engine` ("dot", "neato", "nop2", ...). Returns 0 on success.
int bvz_layout(bvz_graph *graph, const char *engine);
/// Renders a laid-out graph as `format` ("svg", "png", ...) into `first` (capacity `first_cap`,
/// may be 0) and, for what does not fit, a malloc'd spill buffer (`*spill`, `*spill_len`; NULL
/// and 0 when nothing spilled; free it with bvz_free). `*first_len` is what went into `first`.
/// Returns 0 on success.
int bvz_render(bvz_graph *graph, const char *format, char *first, size_t first_cap, size_t *first_len, char **spill,
               size_t *spill_len);
/// Writes a laid-out graph's layout into its attributes (node `pos`, edge `pos` splines, `bb`,
/// label positions) and frees the layout, so more objects can be added with pinned positions and
/// the whole laid out again with `nop2`. Returns 0 on success.
int bvz_pin_layout(bvz_graph *graph);
/// The value of attribute `name` of a graph or subgraph ("" when not set); valid until changed.
const char *bvz_graph_get(void *graph, const char *name);
/// Writes the graph as DOT text into a malloc'd buffer (free it with bvz_free). Returns 0 on
/// success.
int bvz_write_dot(bvz_graph *graph, char **out, size_t *len);
/// free().
void bvz_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
