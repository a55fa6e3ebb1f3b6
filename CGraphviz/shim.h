// Thin shims over Graphviz's C API for Swift 6.
//
// - `Agdirected` and the other `Agdesc_t` globals import as mutable globals, which Swift 6's
//   strict concurrency rejects; these functions return them by value instead.
// - cgraph's setters take `char *` although they copy their arguments; the shims take
//   `const char *` so Swift strings convert directly and const changes between Graphviz
//   versions stay hidden here.
#ifndef BOARDY_CGRAPHVIZ_SHIM_H
#define BOARDY_CGRAPHVIZ_SHIM_H

#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline Agdesc_t bvz_directed(void) { return Agdirected; }


static inline Agdesc_t bvz_strict_directed(void) { return Agstrictdirected; }

// An ID discipline that gives every object an ID in creation order.
//
// cgraph's default discipline uses the address of an object's interned name as its ID, and
// keeps subgraphs ordered by ID: the order of clusters in the layout and in the output then
// depends on where malloc put those names, which differs between two renders in one process.
// This discipline numbers names in the order they are first seen (even IDs; anonymous objects
// get odd ones, as with the default) and keeps, per graph, the interned name of each ID in an
// array (so printing a name is O(1)), its hash, the node of that name if there is one (so
// bvz_node_named finds it without cgraph's tree of nodes by ID), and a hash table from name to
// ID. Names are interned with agstrdup, so cgraph's checks on them (aghtmlstr) work as with the
// default discipline. Its state is the graph's memory (agalloc), so it goes with the graph's
// arena.
typedef struct {
    Agraph_t *graph;
    char **names;        // names[k]: the interned name of ID 2 * (k + 1)
    size_t *hashes;      // hashes[k]: bvz_id_hash(names[k])
    Agnode_t **nodes;    // nodes[k]: the node named names[k], or NULL
    size_t count, capacity;
    uint64_t *slots;     // open addressing: 0 = empty, else (hash >> 32) << 32 | (k + 1)
    size_t slotCount;    // a power of two, at least twice count
    IDTYPE anonymous;    // the next odd ID
} bvz_id_state;

static inline size_t bvz_id_hash(const char *s) {
    size_t h = 1469598103934665603ULL;  // FNV-1a
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ULL; }
    return h;
}

static inline void *bvz_id_open(Agraph_t *g, Agdisc_t *disc) {
    (void)disc;
    bvz_id_state *st = (bvz_id_state *)agalloc(g, sizeof(bvz_id_state));  // zeroed
    if (st == NULL) return NULL;
    st->graph = g;
    st->anonymous = 1;
    return st;
}

// A slot: the hash's high half beside the index, so a probe rejects other names without
// reading them.
static inline uint64_t bvz_id_slot(size_t hash, size_t k) {
    return ((uint64_t)hash & 0xFFFFFFFF00000000ULL) | (uint64_t)(k + 1);
}

static inline int bvz_id_grow(bvz_id_state *st) {
    if (st->count >= 0xFFFFFFFEULL) return 0;  // indices are 32 bits in a slot
    if (st->count + 1 > st->capacity) {
        size_t old = st->capacity, cap = old ? old * 2 : 64;
        char **names = (char **)agrealloc(st->graph, st->names, old * sizeof(char *), cap * sizeof(char *));
        if (names == NULL) return 0;
        st->names = names;
        size_t *hashes = (size_t *)agrealloc(st->graph, st->hashes, old * sizeof(size_t), cap * sizeof(size_t));
        if (hashes == NULL) return 0;
        st->hashes = hashes;
        Agnode_t **nodes = (Agnode_t **)agrealloc(st->graph, st->nodes, old * sizeof(Agnode_t *), cap * sizeof(Agnode_t *));
        if (nodes == NULL) return 0;
        st->nodes = nodes;  // zero beyond `old`: agrealloc clears what it adds
        st->capacity = cap;
    }
    if (2 * (st->count + 1) > st->slotCount) {
        size_t n = st->slotCount ? st->slotCount * 2 : 128;
        uint64_t *slots = (uint64_t *)agalloc(st->graph, n * sizeof(uint64_t));  // zeroed
        if (slots == NULL) return 0;
        for (size_t k = 0; k < st->count; k++) {
            size_t i = st->hashes[k] & (n - 1);
            while (slots[i] != 0) i = (i + 1) & (n - 1);
            slots[i] = bvz_id_slot(st->hashes[k], k);
        }
        agfree(st->graph, st->slots);
        st->slots = slots;
        st->slotCount = n;
    }
    return 1;
}

// The index k of `str` (ID 2 * (k + 1)), or -1.
static inline long bvz_id_find(const bvz_id_state *st, const char *str, size_t hash) {
    if (st->slotCount == 0) return -1;
    size_t i = hash & (st->slotCount - 1);
    uint64_t high = (uint64_t)hash & 0xFFFFFFFF00000000ULL;
    for (uint64_t slot; (slot = st->slots[i]) != 0; i = (i + 1) & (st->slotCount - 1)) {
        if ((slot & 0xFFFFFFFF00000000ULL) != high) continue;
        size_t k = (size_t)(slot & 0xFFFFFFFFULL) - 1;
        if (strcmp(st->names[k], str) == 0) return (long)k;
    }
    return -1;
}

static inline long bvz_id_map(void *state, int objtype, char *str, IDTYPE *id, int createflag) {
    (void)objtype;
    bvz_id_state *st = (bvz_id_state *)state;
    if (st == NULL) return 0;
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
    size_t i = hash & (st->slotCount - 1);
    while (st->slots[i] != 0) i = (i + 1) & (st->slotCount - 1);
    st->slots[i] = bvz_id_slot(hash, k);
    *id = 2 * (IDTYPE)(k + 1);
    return 1;
}
static inline long bvz_id_alloc(void *state, int objtype, IDTYPE request) {
    (void)state; (void)objtype; (void)request;
    return 0;  // no caller-chosen IDs (as the default)
}
// Names live until the graph closes (its string dictionary frees them); a deleted node is
// forgotten.
static inline void bvz_id_free(void *state, int objtype, IDTYPE id) {
    bvz_id_state *st = (bvz_id_state *)state;
    if (st == NULL || objtype != AGNODE || id % 2 != 0 || id == 0 || id / 2 > st->count) return;
    st->nodes[id / 2 - 1] = NULL;
}
static inline char *bvz_id_print(void *state, int objtype, IDTYPE id) {
    (void)objtype;
    bvz_id_state *st = (bvz_id_state *)state;
    if (st == NULL || id % 2 != 0 || id == 0 || id / 2 > st->count) return NULL;
    return st->names[id / 2 - 1];
}
static inline void bvz_id_close(void *state) {
    bvz_id_state *st = (bvz_id_state *)state;
    if (st == NULL) return;
    agfree(st->graph, st->names);
    agfree(st->graph, st->hashes);
    agfree(st->graph, st->nodes);
    agfree(st->graph, st->slots);
    agfree(st->graph, st);
}
// Called for every new object, with its ID set: remembers nodes by name.
static inline void bvz_id_register(void *state, int objtype, void *obj) {
    bvz_id_state *st = (bvz_id_state *)state;
    if (st == NULL || objtype != AGNODE) return;
    IDTYPE id = AGID(obj);
    if (id % 2 != 0 || id == 0 || id / 2 > st->count) return;
    st->nodes[id / 2 - 1] = (Agnode_t *)obj;
}

static Agiddisc_t bvz_creation_order_iddisc = {
    bvz_id_open, bvz_id_map, bvz_id_alloc, bvz_id_free, bvz_id_print, bvz_id_close, bvz_id_register,
};

// An arena for one graph's cgraph memory (Graphviz 2.4x: Debian 12's 2.42/2.43, whose memory
// discipline and Agclos_t this was checked against; later versions dropped the discipline).
//
// cgraph allocates every node, edge, record, attribute array and interned string of a graph
// through its memory discipline, one malloc (plus a memset) each, and agclose walked every node
// and edge to free them one by one. The arena hands out zeroed memory from large blocks in
// creation order (so a graph's objects sit together in memory, as its walks visit them), frees
// nothing singly, and releases its blocks at once when the graph closes (bvz_agclose). The
// allocator itself is plain C; the discipline that hands it to cgraph is built for 2.4x only.
//
// agclose of a root graph whose discipline has a close function skips its walk over every
// node and edge and only calls that function ("free entire heap" in cgraph's graph.c), which
// releases the blocks. cdt mallocs each dictionary's header itself, though, not through the
// discipline, so bvz_agclose collects the graph's dictionaries first and frees their headers
// after (their contents are in the arena). Layout and rendering data are malloc'd by libgvc, not
// through the discipline, and gvFreeLayout frees them before agclose as before.
typedef struct bvz_block { struct bvz_block *next; size_t size; } bvz_block;  // then `size` bytes
_Static_assert(sizeof(bvz_block) <= 16, "a block's header fits its alignment");
// One bump region per size class (16-byte steps up to BVZ_ARENA_CLASSES * 16 bytes; larger
// requests share the last): objects of one size, such as all nodes or all edges, are then
// contiguous in creation order, and a walk over them reads memory in sequence instead of
// skipping over the strings and records allocated between them.
#define BVZ_ARENA_ALIGN ((size_t)16)
#define BVZ_ARENA_CLASSES 32
#define BVZ_ARENA_MAX_BLOCK ((size_t)1 << 20)
typedef struct {
    char *cursor, *end;
    size_t blockSize;  // of the region's next block; doubles up to BVZ_ARENA_MAX_BLOCK
} bvz_region;
typedef struct {
    bvz_block *blocks;
    bvz_region regions[BVZ_ARENA_CLASSES + 1];
} bvz_arena;

static inline void *bvz_arena_open(Agdisc_t *disc) {
    (void)disc;
    return calloc(1, sizeof(bvz_arena));
}
// A zeroed block of `bytes` usable bytes, linked for release.
static inline char *bvz_arena_block(bvz_arena *a, size_t bytes) {
    bvz_block *b = (bvz_block *)calloc(1, BVZ_ARENA_ALIGN + bytes);
    if (b == NULL) return NULL;
    b->size = bytes;
    b->next = a->blocks;
    a->blocks = b;
    return (char *)b + BVZ_ARENA_ALIGN;
}
static inline void *bvz_arena_alloc(void *heap, size_t request) {
    bvz_arena *a = (bvz_arena *)heap;
    if (a == NULL || request > ((size_t)1 << 40)) return NULL;
    size_t n = request == 0 ? BVZ_ARENA_ALIGN : (request + BVZ_ARENA_ALIGN - 1) & ~(BVZ_ARENA_ALIGN - 1);
    size_t k = n / BVZ_ARENA_ALIGN - 1;
    bvz_region *r = &a->regions[k < BVZ_ARENA_CLASSES ? k : BVZ_ARENA_CLASSES];
    if (n > (size_t)(r->end - r->cursor)) {
        if (n > BVZ_ARENA_MAX_BLOCK / 4) return bvz_arena_block(a, n);  // its own block
        size_t size = r->blockSize ? r->blockSize : (size_t)16 << 10;
        r->blockSize = size < BVZ_ARENA_MAX_BLOCK ? size * 2 : size;
        while (size < n) size *= 2;  // a request larger than the region's next block
        char *p = bvz_arena_block(a, size);
        if (p == NULL) return NULL;
        r->cursor = p;
        r->end = p + size;
    }
    void *p = r->cursor;
    r->cursor += n;
    return p;  // zero: blocks come zeroed and a cursor never moves back
}
// Whether [p, p + n) lies inside one block of the arena (for tests).
static inline int bvz_arena_owns(void *heap, const void *p, size_t n) {
    for (bvz_block *b = ((bvz_arena *)heap)->blocks; b != NULL; b = b->next) {
        const char *start = (const char *)b + BVZ_ARENA_ALIGN;
        if ((const char *)p >= start && (const char *)p + n <= start + b->size) return 1;
    }
    return 0;
}
static inline void *bvz_arena_resize(void *heap, void *ptr, size_t oldsize, size_t request) {
    if (ptr != NULL && request <= oldsize) return ptr;
    void *q = bvz_arena_alloc(heap, request);
    if (q != NULL && ptr != NULL) memcpy(q, ptr, oldsize);
    return q;
}
static inline void bvz_arena_free(void *heap, void *ptr) { (void)heap; (void)ptr; }
static inline void bvz_arena_release(void *heap) {
    bvz_arena *a = (bvz_arena *)heap;
    if (a == NULL) return;
    for (bvz_block *b = a->blocks; b != NULL;) {
        bvz_block *next = b->next;
        free(b);
        b = next;
    }
    free(a);
}
#if !defined(GRAPHVIZ_VERSION_MAJOR)
static Agmemdisc_t bvz_arena_memdisc = {
    bvz_arena_open, bvz_arena_alloc, bvz_arena_resize, bvz_arena_free, bvz_arena_release,
};
// The same without a close function: agclose then walks the graph and frees every dictionary
// (bvz_agclose swaps it in where it cannot collect them) and the arena is released after.
static Agmemdisc_t bvz_arena_memdisc_walking = {
    bvz_arena_open, bvz_arena_alloc, bvz_arena_resize, bvz_arena_free, NULL,
};

// The string dictionary's discipline: a copy of cgraph's, per graph (in the graph's memory),
// whose memory function grows the hash table with realloc or, in an arena, in the arena. cdt
// grows a table by "reallocating" it (it passes the old table and expects its entries kept)
// without saying the old size, so each arena block carries its size in front.
typedef struct {
    Dtdisc_t disc;  // first, so cdt's Dtdisc_t pointer is this struct's
    bvz_arena *arena;
    size_t reserve;  // strings expected (bvz_reserve_strings)
} bvz_strdict_disc_t;
// cdt asks the discipline for the table size whenever it grows the table (DT_HASHSIZE); left
// alone it keeps up to two strings per slot, chained through the strings themselves, so a
// lookup in a table of a few hundred thousand strings followed one or two chain links into
// cold memory. This answers: room for the expected strings at one per two slots, and past
// that four slots per string.
static inline int bvz_dict_event(Dt_t *dt, int type, void *data, Dtdisc_t *disc) {
    if (type != DT_HASHSIZE) return 0;
    size_t want = ((bvz_strdict_disc_t *)disc)->reserve * 2;
    size_t grown = (size_t)dt->data->size * 4;
    if (grown > want) want = grown;
    if (want > ((size_t)1 << 30)) want = (size_t)1 << 30;
    if (want <= (size_t)dt->data->ntab) return 0;  // cdt's own choice
    *(int *)data = (int)want;
    return 1;
}
static inline void *bvz_dict_memory(Dt_t *dt, void *p, size_t size, Dtdisc_t *disc) {
    (void)dt;
    bvz_arena *a = ((bvz_strdict_disc_t *)disc)->arena;
    if (a == NULL) {  // a graph on malloc
        if (size == 0) { free(p); return NULL; }
        return realloc(p, size);
    }
    if (size == 0) return NULL;  // a free: the arena releases everything at once
    char *block = (char *)bvz_arena_alloc(a, size + BVZ_ARENA_ALIGN);
    if (block == NULL) return NULL;
    *(size_t *)block = size;
    char *q = block + BVZ_ARENA_ALIGN;
    if (p != NULL) {
        size_t old = *(size_t *)((char *)p - BVZ_ARENA_ALIGN);
        memcpy(q, p, old < size ? old : size);
    }
    return q;
}
#endif

/// Opens a root graph whose objects get IDs in creation order (see above), so subgraphs keep the
/// order they were created in and output does not depend on memory addresses.
///
/// On Graphviz 2.4x, the graph's string dictionary (every name and attribute value, interned
/// with a reference count) is cdt's hash set instead of its splay tree: cgraph only searches,
/// inserts and deletes it by key, never iterates it in order, so nothing visible changes, while
/// a tree of several hundred thousand distinct strings (a large timeline's positions, ids and
/// titles) made every attribute set cost two tree searches with `strcmp` on cold memory.
///
/// With `arena` nonzero (Graphviz 2.4x only; ignored elsewhere), the graph's memory is an arena
/// (see above). Only for graphs that no layout restructures: a pinned layout (`nop`, `nop2`) or
/// none. dot moves edges in and out of clusters, and cgraph frees the holders of a cluster's
/// edges through a global that can point at another graph's discipline than the one that
/// allocated them, which is harmless with malloc and wrong with an arena.
static inline Agraph_t *bvz_agopen(const char *name, Agdesc_t desc, int arena) {
#if !defined(GRAPHVIZ_VERSION_MAJOR)
    Agdisc_t disc = { arena ? &bvz_arena_memdisc : &AgMemDisc, &bvz_creation_order_iddisc, &AgIoDisc };
#else
    (void)arena;
    Agdisc_t disc = { &AgMemDisc, &bvz_creation_order_iddisc, &AgIoDisc };
#endif
    Agraph_t *g = agopen((char *)name, desc, &disc);
    if (g == NULL) return NULL;
#if !defined(GRAPHVIZ_VERSION_MAJOR)
    if (g->clos->strdict == NULL) agstrfree(g, agstrdup(g, ""));  // created on first use
    Dict_t *dict = g->clos->strdict;
    // In the arena, or malloc'd and freed by bvz_agclose.
    bvz_strdict_disc_t *copy = (bvz_strdict_disc_t *)(arena ? agalloc(g, sizeof(bvz_strdict_disc_t)) : calloc(1, sizeof(bvz_strdict_disc_t)));
    if (dict == NULL && copy != NULL && !arena) free(copy);
    if (dict != NULL && copy != NULL) {
        copy->disc = *dtdisc(dict, NULL, 0);
        copy->disc.memoryf = bvz_dict_memory;
        copy->disc.eventf = bvz_dict_event;
        copy->arena = arena ? (bvz_arena *)g->clos->state.mem : NULL;
        dtdisc(dict, &copy->disc, DT_SAMECMP | DT_SAMEHASH);
        dtmethod(dict, Dtset);
    }
#endif
    return g;
}

#if !defined(GRAPHVIZ_VERSION_MAJOR)
// The dictionaries cgraph 2.4x opens for a graph (agdtopen): per graph and subgraph, its node,
// edge and subgraph sets and, once attributes exist, its three attribute dictionaries (record
// "_AG_datadict"); per root, the string dictionary and the internal name maps. cdt allocates a
// dictionary's header with malloc unless its discipline says otherwise, which marks the header
// DT_MEMORYF (1 in the low bit of `type`; the other bits are search state).
typedef struct { Dict_t **items; size_t count, capacity; int failed; } bvz_dict_list;
static inline void bvz_dict_add(bvz_dict_list *l, Dict_t *d) {
    if (d == NULL || (d->type & 1) != 0) return;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 64;
        Dict_t **items = (Dict_t **)realloc(l->items, cap * sizeof(Dict_t *));
        if (items == NULL) { l->failed = 1; return; }
        l->items = items;
        l->capacity = cap;
    }
    l->items[l->count++] = d;
}
static inline void bvz_collect_dicts(Agraph_t *g, bvz_dict_list *l) {
    bvz_dict_add(l, g->n_seq);
    bvz_dict_add(l, g->n_id);
    bvz_dict_add(l, g->e_seq);
    bvz_dict_add(l, g->e_id);
    bvz_dict_add(l, g->g_dict);
    Agdatadict_t *dd = (Agdatadict_t *)aggetrec(g, (char *)"_AG_datadict", 0);
    if (dd != NULL) {
        bvz_dict_add(l, dd->dict.n);
        bvz_dict_add(l, dd->dict.e);
        bvz_dict_add(l, dd->dict.g);
    }
    for (Agraph_t *sub = agfstsubg(g); sub != NULL; sub = agnxtsubg(sub)) bvz_collect_dicts(sub, l);
}
#endif

#if !defined(GRAPHVIZ_VERSION_MAJOR)
// agclose walking the graph (every dictionary closed the usual way), then the arena released.
static inline int bvz_agclose_walking(Agraph_t *g) {
    void *heap = g->clos->state.mem;
    g->clos->disc.mem = &bvz_arena_memdisc_walking;
    int rc = agclose(g);
    bvz_arena_release(heap);
    return rc;
}
#endif

/// Closes a root graph from bvz_agopen and releases its memory. Returns agclose's result.
static inline int bvz_agclose(Agraph_t *g) {
#if !defined(GRAPHVIZ_VERSION_MAJOR)
    if (g->clos->disc.mem != &bvz_arena_memdisc) {
        Dtdisc_t *disc = g->clos->strdict != NULL ? dtdisc(g->clos->strdict, NULL, 0) : NULL;
        int rc = agclose(g);
        if (disc != NULL && disc->memoryf == bvz_dict_memory) free(disc);
        return rc;
    }
    // An edge inside a subgraph has holders in the subgraph's edge sets that cdt mallocs and
    // this close would leave; no arena graph has one (the builder makes every edge in the root
    // graph, and pinned layouts do not move edges into clusters; `make memcheck` checks).
    bvz_dict_list dicts = { NULL, 0, 0, 0 };
    bvz_collect_dicts(g, &dicts);
    bvz_dict_add(&dicts, g->clos->strdict);
    for (int k = 0; k < 3; k++) {
        bvz_dict_add(&dicts, g->clos->lookup_by_name[k]);
        bvz_dict_add(&dicts, g->clos->lookup_by_id[k]);
    }
    if (dicts.failed) {  // no memory for the list: the slow way
        free(dicts.items);
        return bvz_agclose_walking(g);
    }
    int rc = agclose(g);  // releases the arena
    for (size_t k = 0; k < dicts.count; k++) free(dicts.items[k]);
    free(dicts.items);
    return rc;
#else
    return agclose(g);
#endif
}
/// Tells a root graph from bvz_agopen how many distinct strings (names and attribute values)
/// to expect, so its string dictionary's table is sized once (see bvz_dict_event).
static inline void bvz_reserve_strings(Agraph_t *g, size_t count) {
#if !defined(GRAPHVIZ_VERSION_MAJOR)
    Dict_t *dict = g->clos->strdict;
    Dtdisc_t *disc = dict != NULL ? dtdisc(dict, NULL, 0) : NULL;
    if (disc != NULL && disc->memoryf == bvz_dict_memory) ((bvz_strdict_disc_t *)disc)->reserve = count;
#else
    (void)g; (void)count;
#endif
}

/// The node named `name` in the root graph `g` from bvz_agopen, or NULL: a hash lookup, where
/// agnode(g, name, 0) also searches cgraph's tree of nodes by ID.
static inline Agnode_t *bvz_node_named(Agraph_t *g, const char *name) {
    bvz_id_state *st = (bvz_id_state *)g->clos->state.id;
    if (g->clos->disc.id != &bvz_creation_order_iddisc || st == NULL) return agnode(g, (char *)name, 0);
    long k = bvz_id_find(st, name, bvz_id_hash(name));
    return k >= 0 ? st->nodes[k] : NULL;
}
static inline Agraph_t *bvz_agsubg(Agraph_t *g, const char *name) {
    return agsubg(g, (char *)name, 1);
}
static inline Agnode_t *bvz_agnode(Agraph_t *g, const char *name) {
    return agnode(g, (char *)name, 1);
}
static inline Agedge_t *bvz_agedge(Agraph_t *g, Agnode_t *t, Agnode_t *h, const char *name) {
    return agedge(g, t, h, (char *)name, 1);
}
static inline int bvz_agsafeset(void *obj, const char *name, const char *value, const char *def) {
    return agsafeset(obj, (char *)name, (char *)value, (char *)def);
}
/// Sets an HTML-like label: the value is interned with `agstrdup_html` so cgraph treats it as HTML.
static inline int bvz_agsafeset_html(Agraph_t *root, void *obj, const char *name, const char *html) {
    Agsym_t *sym = agattr(agraphof(obj), AGTYPE(obj), (char *)name, NULL);
    if (sym == NULL) sym = agattr(root, AGTYPE(obj), (char *)name, "");
    char *interned = agstrdup_html(agraphof(obj), (char *)html);
    int rc = agxset(obj, sym, interned);
    agstrfree(agraphof(obj), interned);
    return rc;
}
static inline Agsym_t *bvz_agattr(Agraph_t *g, int kind, const char *name, const char *def) {
    return agattr(g, kind, (char *)name, (char *)def);
}
static inline int bvz_agxset(void *obj, Agsym_t *sym, const char *value) {
    return agxset(obj, sym, value);
}
static inline char *bvz_agget(void *obj, const char *name) {
    return agget(obj, (char *)name);
}


/// Writes `g` as DOT text (before or after layout) into a malloc'd buffer; free it with free().
/// Returns 0 on success.
static inline int bvz_write_dot(Agraph_t *g, char **out, size_t *len) {
    *out = NULL;
    *len = 0;
    FILE *f = open_memstream(out, len);
    if (f == NULL) return -1;
    int rc = agwrite(g, f);
    if (fclose(f) != 0) rc = -1;
    return rc;
}

#if defined(__GLIBC__)
// A write-only stream into a buffer grown with realloc. glibc's open_memstream grows by
// allocating a new block and copying, so a 50 MB SVG was copied about twice over and its pages
// faulted in twice; realloc extends in place where it can (and remaps mmapped blocks).
//
// fopencookie is a GNU extension that stdio.h declares only with _GNU_SOURCE, which this module
// cannot define (Swift's Glibc module is built without it, and the two would disagree); without
// it, the function is declared here with a struct of the same layout as cookie_io_functions_t.
typedef ssize_t (*bvz_cookie_write_t)(void *, const char *, size_t);
#if defined(__USE_GNU)
typedef cookie_io_functions_t bvz_cookie_io_t;
#define bvz_fopencookie fopencookie
#else
typedef struct {
    void *read;
    bvz_cookie_write_t write;
    void *seek;
    void *close;
} bvz_cookie_io_t;
extern FILE *fopencookie(void *cookie, const char *mode, bvz_cookie_io_t io);
#define bvz_fopencookie fopencookie
#endif

// The stream fills the caller's buffer first, then a spill buffer it grows.
typedef struct {
    char *first;
    size_t firstCap, firstLen;
    char *buf;  // the spill
    size_t len, cap;
    int failed;
} bvz_buffer;
static inline int bvz_spill(bvz_buffer *b, const char *data, size_t size) {
    if (size > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : (size_t)1 << 16;
        while (cap - b->len < size) cap *= 2;
        char *grown = (char *)realloc(b->buf, cap);
        if (grown == NULL) { b->failed = 1; return 0; }
        b->buf = grown;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, data, size);
    b->len += size;
    return 1;
}
static inline ssize_t bvz_buffer_write(void *cookie, const char *data, size_t size) {
    bvz_buffer *b = (bvz_buffer *)cookie;
    size_t n = 0;
    if (b->len == 0) {  // nothing spilled yet: fill the caller's buffer
        size_t room = b->firstCap - b->firstLen;
        n = size < room ? size : room;
        if (n > 0) memcpy(b->first + b->firstLen, data, n);
        b->firstLen += n;
    }
    if (n < size && !bvz_spill(b, data + n, size - n)) return -1;
    return (ssize_t)size;
}
#endif

/// Renders a laid-out graph into `first` (capacity `firstCap`, may be 0) and, for what does not
/// fit, a malloc'd spill buffer (`*out`, `*len`; NULL and 0 when nothing spilled; free it with
/// free()). `*firstLen` is what went into `first`. Returns 0 on success.
///
/// gvRenderData grows its buffer a page at a time (quadratic for large SVGs), and rendering into
/// a buffer of our own and copying it into the caller's array made a large SVG cost a second
/// write of every byte and a second set of fresh pages; a caller that can estimate the size
/// hands its array's storage as `first`.
static inline int bvz_render_memstream(GVC_t *gvc, Agraph_t *g, const char *format, char *first, size_t firstCap, size_t *firstLen,
                                       char **out, size_t *len) {
    *out = NULL;
    *len = 0;
    *firstLen = 0;
#if defined(__GLIBC__)
    bvz_buffer b = { first, first != NULL ? firstCap : 0, 0, NULL, 0, 0, 0 };
    bvz_cookie_io_t io;
    memset(&io, 0, sizeof io);
    io.write = bvz_buffer_write;
    FILE *f = bvz_fopencookie(&b, "w", io);
    if (f == NULL) return -1;
    int rc = gvRender(gvc, g, format, f);
    if (fclose(f) != 0 || b.failed) rc = -1;
    if (rc != 0) { free(b.buf); return rc; }
    *firstLen = b.firstLen;
    *out = b.buf;
    *len = b.len;
    return 0;
#else
    (void)first; (void)firstCap;
    FILE *f = open_memstream(out, len);
    if (f == NULL) return -1;
    int rc = gvRender(gvc, g, format, f);
    if (fclose(f) != 0) rc = -1;
    if (rc != 0) { free(*out); *out = NULL; *len = 0; }
    return rc;
#endif
}

/// The attribute symbol `name` for objects of `kind` in `root`, declared (default "") if new.
static inline Agsym_t *bvz_symbol(Agraph_t *root, int kind, const char *name) {
    Agsym_t *sym = agattr(root, kind, (char *)name, NULL);
    if (sym == NULL) sym = agattr(root, kind, (char *)name, "");
    return sym;
}

static inline void bvz_free(void *p) { free(p); }

#endif
