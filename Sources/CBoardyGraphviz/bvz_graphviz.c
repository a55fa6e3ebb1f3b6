// boardy-viz's C layer over Graphviz's public API: see include/bvz_graphviz.h.
//
// Only what cgraph.h and gvc.h declare in every Graphviz from 2.42 to 14 is used. Where a public
// declaration differs between versions, BVZ_GRAPHVIZ_MAJOR chooses (below); nothing else here
// depends on the version.
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // fopencookie (glibc)
#endif

#include "bvz_graphviz.h"

#include <graphviz/graphviz_version.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Which Graphviz

// graphviz_version.h defines GRAPHVIZ_VERSION_MAJOR from Graphviz 14 on; before, only
// PACKAGE_VERSION, a string the preprocessor cannot compare. Earlier releases are told apart by
// what their public headers declare: cgraph.h declares its API with CGRAPH_API from 2.42 on, and
// defines the agnew macro up to 12 (13 removed it with the allocator API).
#define BVZ_NEWEST_CHECKED 14
#if defined(GRAPHVIZ_VERSION_MAJOR)
#define BVZ_GRAPHVIZ_MAJOR GRAPHVIZ_VERSION_MAJOR
#elif !defined(CGRAPH_API)
#error "boardy-viz needs Graphviz 2.42 or newer: this cgraph.h predates 2.42 (see PACKAGE_VERSION in graphviz_version.h)"
#elif defined(agnew)
#define BVZ_GRAPHVIZ_MAJOR 2  // 2.42 to 12.x: the same declarations for what this file uses
#else
#define BVZ_GRAPHVIZ_MAJOR 13
#endif
#if BVZ_GRAPHVIZ_MAJOR > BVZ_NEWEST_CHECKED
#warning "boardy-viz was checked with Graphviz 2.42 to 14.x; this Graphviz is newer: please report what breaks"
#endif

// Graphviz 13 removed Agiddisc_t's alloc slot and gave agstrfree an is_html argument.
#if BVZ_GRAPHVIZ_MAJOR >= 13
#define BVZ_IDDISC_HAS_ALLOC 0
#define bvz_agstrfree(g, s) agstrfree((g), (s), false)
#else
#define BVZ_IDDISC_HAS_ALLOC 1
#define bvz_agstrfree(g, s) agstrfree((g), (s))
#endif

const char *bvz_graphviz_compiled_version(void) { return PACKAGE_VERSION; }

// MARK: - Process-wide state (behind the caller's lock)

// One context per process: each gvContext/gvFreeContext pair leaks a few KB in 2.42.
static GVC_t *bvz_context;

// Graphviz reports through agerr, in pieces ("Error", ": ", text); the callback collects them.
static char *bvz_message_text;
static size_t bvz_message_len, bvz_message_cap;

static int bvz_collect_message(char *text) {
    if (text == NULL) return 0;
    size_t n = strlen(text);
    if (bvz_message_len + n + 1 > bvz_message_cap) {
        size_t cap = bvz_message_cap ? bvz_message_cap : 256;
        while (bvz_message_len + n + 1 > cap) cap *= 2;
        char *grown = (char *)realloc(bvz_message_text, cap);
        if (grown == NULL) return 0;  // the message is lost, the error count still says so
        bvz_message_text = grown;
        bvz_message_cap = cap;
    }
    memcpy(bvz_message_text + bvz_message_len, text, n + 1);
    bvz_message_len += n;
    return 0;
}

int bvz_begin(void) {
    if (bvz_context == NULL) {
        agseterrf(bvz_collect_message);
        bvz_context = gvContext();
        if (bvz_context == NULL) return -1;
    }
    bvz_message_len = 0;
    if (bvz_message_text != NULL) bvz_message_text[0] = '\0';
    agreseterrors();  // sticky until reset: one bad graph must not fail every later one
    return 0;
}

const char *bvz_graphviz_version(void) { return bvz_context != NULL ? gvcVersion(bvz_context) : NULL; }
const char *bvz_messages(void) { return bvz_message_text != NULL ? bvz_message_text : ""; }
int bvz_errors(void) { return agerrors() != 0; }

// MARK: - IDs in creation order

// cgraph's default ID discipline uses the address of an object's interned name as its ID, and
// keeps subgraphs ordered by ID: the order of clusters in the layout and in the output then
// depends on where malloc put those names, which differs between two renders in one process.
// This discipline numbers names in the order they are first seen (even IDs; anonymous objects
// get odd ones, as with the default) and keeps, per graph, the interned name of each ID (so
// printing a name is O(1)), its hash, the node of that name if there is one (so bvz_node_named
// finds it without cgraph's search by ID), and an open-addressing table from name to ID. Names
// are interned with agstrdup, as the default discipline does, so cgraph's checks on them
// (aghtmlstr) work; the discipline holds one reference per name and drops them in its close.
typedef struct {
    Agraph_t *graph;
    char **names;      // names[k]: the interned name of ID 2 * (k + 1)
    size_t *hashes;    // hashes[k]: bvz_id_hash(names[k])
    Agnode_t **nodes;  // nodes[k]: the node named names[k], or NULL
    size_t count, capacity;
    uint64_t *slots;   // 0 = empty, else (hash >> 32) << 32 | (k + 1)
    size_t slot_count; // a power of two, at least twice count
    IDTYPE anonymous;  // the next odd ID
} bvz_ids;

struct bvz_graph {
    Agdisc_t disc;  // handed to agopen, which hands it to the ID discipline's open (see there)
    bvz_ids ids;
    Agraph_t *root;
    int laid_out;
};

static size_t bvz_id_hash(const char *s) {
    uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return (size_t)h;
}

// A slot: the hash's high half beside the index, so a probe rejects other names without
// reading them.
static uint64_t bvz_id_slot(size_t hash, size_t k) { return ((uint64_t)hash & 0xFFFFFFFF00000000ULL) | (uint64_t)(k + 1); }

static int bvz_id_grow(bvz_ids *st) {
    if (st->count >= 0xFFFFFFFEULL) return 0;  // indices are 32 bits in a slot
    if (st->count + 1 > st->capacity) {
        size_t cap = st->capacity ? st->capacity * 2 : 64;
        char **names = (char **)realloc(st->names, cap * sizeof(char *));
        if (names == NULL) return 0;
        st->names = names;
        size_t *hashes = (size_t *)realloc(st->hashes, cap * sizeof(size_t));
        if (hashes == NULL) return 0;
        st->hashes = hashes;
        Agnode_t **nodes = (Agnode_t **)realloc(st->nodes, cap * sizeof(Agnode_t *));
        if (nodes == NULL) return 0;
        st->nodes = nodes;
        st->capacity = cap;
    }
    if (2 * (st->count + 1) > st->slot_count) {
        size_t n = st->slot_count ? st->slot_count * 2 : 128;
        uint64_t *slots = (uint64_t *)calloc(n, sizeof(uint64_t));
        if (slots == NULL) return 0;
        for (size_t k = 0; k < st->count; k++) {
            size_t i = st->hashes[k] & (n - 1);
            while (slots[i] != 0) i = (i + 1) & (n - 1);
            slots[i] = bvz_id_slot(st->hashes[k], k);
        }
        free(st->slots);
        st->slots = slots;
        st->slot_count = n;
    }
    return 1;
}

// The index k of `str` (ID 2 * (k + 1)), or -1.
static long bvz_id_find(const bvz_ids *st, const char *str, size_t hash) {
    if (st->slot_count == 0) return -1;
    size_t i = hash & (st->slot_count - 1);
    uint64_t high = (uint64_t)hash & 0xFFFFFFFF00000000ULL;
    for (uint64_t slot; (slot = st->slots[i]) != 0; i = (i + 1) & (st->slot_count - 1)) {
        if ((slot & 0xFFFFFFFF00000000ULL) != high) continue;
        size_t k = (size_t)(slot & 0xFFFFFFFFULL) - 1;
        if (strcmp(st->names[k], str) == 0) return (long)k;
    }
    return -1;
}

// agopen hands the discipline it was given to the ID discipline's open (in every version), and
// that discipline is the first member of our bvz_graph: the graph's ID state is found from it.
static void *bvz_id_open(Agraph_t *g, Agdisc_t *disc) {
    bvz_graph *graph = (bvz_graph *)(void *)((char *)disc - offsetof(bvz_graph, disc));
    graph->ids.graph = g;
    graph->ids.anonymous = 1;
    return &graph->ids;
}

static long bvz_id_map(void *state, int objtype, char *str, IDTYPE *id, int createflag) {
    (void)objtype;
    bvz_ids *st = (bvz_ids *)state;
    if (str == NULL) {
        *id = st->anonymous;
        st->anonymous += 2;
        return 1;
    }
    size_t hash = bvz_id_hash(str);
    long found = bvz_id_find(st, str, hash);
    if (found >= 0) {
        *id = 2 * (IDTYPE)(found + 1);
        return 1;
    }
    if (!createflag || !bvz_id_grow(st)) return 0;
    char *interned = agstrdup(st->graph, str);
    if (interned == NULL) return 0;
    size_t k = st->count++;
    st->names[k] = interned;
    st->hashes[k] = hash;
    st->nodes[k] = NULL;
    size_t i = hash & (st->slot_count - 1);
    while (st->slots[i] != 0) i = (i + 1) & (st->slot_count - 1);
    st->slots[i] = bvz_id_slot(hash, k);
    *id = 2 * (IDTYPE)(k + 1);
    return 1;
}

#if BVZ_IDDISC_HAS_ALLOC
static long bvz_id_alloc(void *state, int objtype, IDTYPE request) {
    (void)state;
    (void)objtype;
    (void)request;
    return 0;  // no caller-chosen IDs (agidnode and friends are not used)
}
#endif

// A deleted node is forgotten; names stay until the discipline closes.
static void bvz_id_free(void *state, int objtype, IDTYPE id) {
    bvz_ids *st = (bvz_ids *)state;
    if (objtype != AGNODE || id % 2 != 0 || id == 0 || id / 2 > st->count) return;
    st->nodes[id / 2 - 1] = NULL;
}

static char *bvz_id_print(void *state, int objtype, IDTYPE id) {
    (void)objtype;
    bvz_ids *st = (bvz_ids *)state;
    if (id % 2 != 0 || id == 0 || id / 2 > st->count) return NULL;
    return st->names[id / 2 - 1];
}

// Called by agclose once every object is gone and before the graph's strings are: drops the
// discipline's reference to each name.
static void bvz_id_close(void *state) {
    bvz_ids *st = (bvz_ids *)state;
    for (size_t k = 0; k < st->count; k++) bvz_agstrfree(st->graph, st->names[k]);
    free(st->names);
    free(st->hashes);
    free(st->nodes);
    free(st->slots);
    st->names = NULL;
    st->hashes = NULL;
    st->nodes = NULL;
    st->slots = NULL;
    st->count = st->capacity = st->slot_count = 0;
}

// Called for every new object, with its ID set: remembers nodes by name.
static void bvz_id_register(void *state, int objtype, void *obj) {
    bvz_ids *st = (bvz_ids *)state;
    if (objtype != AGNODE) return;
    IDTYPE id = AGID(obj);
    if (id % 2 != 0 || id == 0 || id / 2 > st->count) return;
    st->nodes[id / 2 - 1] = (Agnode_t *)obj;
}

static Agiddisc_t bvz_creation_order_ids = {
    .open = bvz_id_open,
    .map = bvz_id_map,
#if BVZ_IDDISC_HAS_ALLOC
    .alloc = bvz_id_alloc,
#endif
    .free = bvz_id_free,
    .print = bvz_id_print,
    .close = bvz_id_close,
    .idregister = bvz_id_register,
};

// MARK: - Building

bvz_graph *bvz_graph_open(const char *name) {
    bvz_graph *graph = (bvz_graph *)calloc(1, sizeof(bvz_graph));
    if (graph == NULL) return NULL;
    // Only the ID discipline is ours: memory and I/O stay cgraph's defaults (NULL slots).
    graph->disc = (Agdisc_t){.id = &bvz_creation_order_ids};
    graph->root = agopen((char *)name, Agdirected, &graph->disc);
    if (graph->root == NULL) {
        free(graph);
        return NULL;
    }
    return graph;
}

int bvz_graph_close(bvz_graph *graph) {
    if (graph == NULL) return 0;
    if (graph->laid_out && bvz_context != NULL) gvFreeLayout(bvz_context, graph->root);
    int rc = agclose(graph->root);
    free(graph);
    return rc;
}

void *bvz_graph_root(bvz_graph *graph) { return graph->root; }

void *bvz_subgraph(void *parent, const char *name) { return agsubg((Agraph_t *)parent, (char *)name, 1); }

void *bvz_node(bvz_graph *graph, void *owner, const char *name) {
    Agnode_t *n = (Agnode_t *)bvz_node_named(graph, name);
    if (n == NULL) n = agnode(graph->root, (char *)name, 1);
    if (n != NULL && owner != NULL && owner != graph->root) n = agsubnode((Agraph_t *)owner, n, 1);
    return n;
}

void *bvz_node_named(bvz_graph *graph, const char *name) {
    bvz_ids *st = &graph->ids;
    long k = bvz_id_find(st, name, bvz_id_hash(name));
    return k >= 0 ? st->nodes[k] : NULL;
}

void *bvz_edge(bvz_graph *graph, void *tail, void *head) {
    return agedge(graph->root, (Agnode_t *)tail, (Agnode_t *)head, NULL, 1);
}

void *bvz_declare(bvz_graph *graph, bvz_kind kind, const char *name, const char *def) {
    Agsym_t *sym = agattr(graph->root, (int)kind, (char *)name, NULL);
    if (sym == NULL) sym = agattr(graph->root, (int)kind, (char *)name, (char *)def);
    return sym;
}

void *bvz_declare_default(bvz_graph *graph, bvz_kind kind, const char *name, const char *def) {
    return agattr(graph->root, (int)kind, (char *)name, (char *)def);
}

// cgraph copies every string it is given; the casts drop a const that some versions lack.
int bvz_set(void *object, void *attribute, const char *value) { return agxset(object, (Agsym_t *)attribute, (char *)value); }

int bvz_set_graph(void *graph, const char *name, const char *value) {
    return agsafeset(graph, (char *)name, (char *)value, (char *)"");
}

// MARK: - Layout and output

#if BVZ_GRAPHVIZ_MAJOR < 3
// Graphviz 2.x formats a message for the error callback with vsnprintf into a buffer of 1024
// bytes and, when it does not fit, grows the buffer and formats again with the same va_list,
// already consumed: the arguments read are garbage and the process crashes (fixed upstream with
// va_copy). Any message naming a long node does it ("lost <tail> <head> edge"). A message
// without arguments formats safely twice, so one as long as any message can get grows the
// buffer first; the text it leaves in our collector is dropped.
static size_t bvz_primed = 1024;

static void bvz_prime_messages(size_t size) {
    if (size <= bvz_primed) return;
    char *text = (char *)malloc(size + 1);
    if (text == NULL) return;
    memset(text, 'x', size);
    text[size] = '\0';
    size_t kept = bvz_message_len;
    agerr(AGWARN, text);  // no conversion in it: a safe format
    bvz_message_len = kept;
    if (bvz_message_text != NULL) bvz_message_text[kept] = '\0';
    free(text);
    bvz_primed = size;
}
#endif

int bvz_layout(bvz_graph *graph, const char *engine) {
    if (bvz_context == NULL) return -1;
#if BVZ_GRAPHVIZ_MAJOR < 3
    {
        size_t longest = 0;
        for (size_t k = 0; k < graph->ids.count; k++) {
            size_t n = graph->ids.names[k] != NULL ? strlen(graph->ids.names[k]) : 0;
            if (n > longest) longest = n;
        }
        bvz_prime_messages(4 * longest + 65536);  // a message names at most a few objects
    }
#endif
    if (graph->laid_out) {
        gvFreeLayout(bvz_context, graph->root);
        graph->laid_out = 0;
    }
    int rc = gvLayout(bvz_context, graph->root, engine);
    if (rc == 0) graph->laid_out = 1;
#if BVZ_GRAPHVIZ_MAJOR < 13
    // Before Graphviz 13.0.1, dot's make_vn_slot (a label on an edge between two nodes of one
    // rank) reallocated a rank's node list through `v`, leaving `av`, the pointer its cleanup
    // frees, dangling when realloc moved the list: gvFreeLayout then freed it twice and the
    // heap was corrupted, depending on where malloc had put things (Graphviz commit 690833989).
    // In the root graph `v` is the allocation itself, so `av` is pointed back at it.
    if (rc == 0 && strcmp(engine, "dot") == 0 && agbindrec(graph->root, "Agraphinfo_t", 0, TRUE) != NULL && GD_rank(graph->root) != NULL) {
        for (int r = GD_minrank(graph->root); r <= GD_maxrank(graph->root); r++) {
            rank_t *rank = &GD_rank(graph->root)[r];
            if (rank->av != rank->v) rank->av = rank->v;
        }
    }
#endif
    return rc;
}

#if defined(__GLIBC__)
// A write-only stream into the caller's buffer, then a spill buffer grown with realloc: glibc's
// open_memstream grows by allocating anew and copying, so a 50 MB SVG was copied about twice
// over and its pages faulted in twice, and gvRenderData grows its buffer a page at a time.
typedef struct {
    char *first;
    size_t first_cap, first_len;
    char *spill;
    size_t len, cap;
    int failed;
} bvz_sink;

static int bvz_sink_spill(bvz_sink *b, const char *data, size_t size) {
    if (size > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : (size_t)1 << 16;
        while (cap - b->len < size) cap *= 2;
        char *grown = (char *)realloc(b->spill, cap);
        if (grown == NULL) {
            b->failed = 1;
            return 0;
        }
        b->spill = grown;
        b->cap = cap;
    }
    memcpy(b->spill + b->len, data, size);
    b->len += size;
    return 1;
}

static ssize_t bvz_sink_write(void *cookie, const char *data, size_t size) {
    bvz_sink *b = (bvz_sink *)cookie;
    size_t n = 0;
    if (b->len == 0) {  // nothing spilled yet: fill the caller's buffer
        size_t room = b->first_cap - b->first_len;
        n = size < room ? size : room;
        if (n > 0) memcpy(b->first + b->first_len, data, n);
        b->first_len += n;
    }
    if (n < size && !bvz_sink_spill(b, data + n, size - n)) return -1;
    return (ssize_t)size;
}
#endif

int bvz_render(bvz_graph *graph, const char *format, char *first, size_t first_cap, size_t *first_len, char **spill,
               size_t *spill_len) {
    *spill = NULL;
    *spill_len = 0;
    *first_len = 0;
    if (bvz_context == NULL || !graph->laid_out) return -1;
#if defined(__GLIBC__)
    bvz_sink b = {first, first != NULL ? first_cap : 0, 0, NULL, 0, 0, 0};
    cookie_io_functions_t io = {.write = bvz_sink_write};
    FILE *f = fopencookie(&b, "w", io);
    if (f == NULL) return -1;
    int rc = gvRender(bvz_context, graph->root, format, f);
    if (fclose(f) != 0 || b.failed) rc = -1;
    if (rc != 0) {
        free(b.spill);
        return rc;
    }
    *first_len = b.first_len;
    *spill = b.spill;
    *spill_len = b.len;
    return 0;
#else
    // Elsewhere (Apple's libc, musl) the output goes through open_memstream, all of it spilled.
    (void)first;
    (void)first_cap;
    FILE *f = open_memstream(spill, spill_len);
    if (f == NULL) return -1;
    int rc = gvRender(bvz_context, graph->root, format, f);
    if (fclose(f) != 0) rc = -1;
    if (rc != 0) {
        free(*spill);
        *spill = NULL;
        *spill_len = 0;
    }
    return rc;
#endif
}

#if defined(__GLIBC__)
static ssize_t bvz_discard_write(void *cookie, const char *data, size_t size) {
    (void)cookie;
    (void)data;
    return (ssize_t)size;
}
#endif

int bvz_pin_layout(bvz_graph *graph) {
    if (bvz_context == NULL || !graph->laid_out) return -1;
    // Rendering DOT writes the layout back into the graph's attributes (pos, bb, lp, width,
    // height): Graphviz's documented `dot -Tdot | neato -n2` pipeline, in-process. The text
    // itself is not needed.
#if defined(__GLIBC__)
    cookie_io_functions_t io = {.write = bvz_discard_write};
    FILE *f = fopencookie(NULL, "w", io);
    if (f == NULL) return -1;
    int rc = gvRender(bvz_context, graph->root, "dot", f);
    if (fclose(f) != 0) rc = -1;
#else
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) return -1;
    int rc = gvRender(bvz_context, graph->root, "dot", f);
    if (fclose(f) != 0) rc = -1;
    free(text);
#endif
    gvFreeLayout(bvz_context, graph->root);
    graph->laid_out = 0;
    return rc;
}

const char *bvz_graph_get(void *graph, const char *name) {
    char *value = agget(graph, (char *)name);
    return value == NULL ? "" : value;
}

int bvz_write_dot(bvz_graph *graph, char **out, size_t *len) {
    *out = NULL;
    *len = 0;
    FILE *f = open_memstream(out, len);
    if (f == NULL) return -1;
    int rc = agwrite(graph->root, f);
    if (fclose(f) != 0) rc = -1;
    if (rc != 0) {
        free(*out);
        *out = NULL;
        *len = 0;
    }
    return rc;
}

void bvz_free(void *p) { free(p); }
