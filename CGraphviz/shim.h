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
// array (so printing a name is O(1)) and a hash table from name to ID. Names are interned with
// agstrdup, so cgraph's checks on them (aghtmlstr) work as with the default discipline.
typedef struct {
    Agraph_t *graph;
    char **names;        // names[k]: the interned name of ID 2 * (k + 1)
    size_t count, capacity;
    size_t *slots;       // open addressing: 0 = empty, else k + 1
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
    bvz_id_state *st = (bvz_id_state *)calloc(1, sizeof(bvz_id_state));
    if (st == NULL) return NULL;
    st->graph = g;
    st->anonymous = 1;
    return st;
}

static inline int bvz_id_grow(bvz_id_state *st) {
    if (st->count + 1 > st->capacity) {
        size_t cap = st->capacity ? st->capacity * 2 : 64;
        char **names = (char **)realloc(st->names, cap * sizeof(char *));
        if (names == NULL) return 0;
        st->names = names;
        st->capacity = cap;
    }
    if (2 * (st->count + 1) > st->slotCount) {
        size_t n = st->slotCount ? st->slotCount * 2 : 128;
        size_t *slots = (size_t *)calloc(n, sizeof(size_t));
        if (slots == NULL) return 0;
        for (size_t k = 0; k < st->count; k++) {
            size_t i = bvz_id_hash(st->names[k]) & (n - 1);
            while (slots[i] != 0) i = (i + 1) & (n - 1);
            slots[i] = k + 1;
        }
        free(st->slots);
        st->slots = slots;
        st->slotCount = n;
    }
    return 1;
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
    if (st->slotCount > 0) {
        size_t i = bvz_id_hash(str) & (st->slotCount - 1);
        while (st->slots[i] != 0) {
            size_t k = st->slots[i] - 1;
            if (strcmp(st->names[k], str) == 0) {
                *id = 2 * (IDTYPE)(k + 1);
                return 1;
            }
            i = (i + 1) & (st->slotCount - 1);
        }
    }
    if (!createflag || !bvz_id_grow(st)) return 0;
    char *interned = agstrdup(st->graph, str);
    if (interned == NULL) return 0;
    size_t k = st->count++;
    st->names[k] = interned;
    size_t i = bvz_id_hash(interned) & (st->slotCount - 1);
    while (st->slots[i] != 0) i = (i + 1) & (st->slotCount - 1);
    st->slots[i] = k + 1;
    *id = 2 * (IDTYPE)(k + 1);
    return 1;
}
static inline long bvz_id_alloc(void *state, int objtype, IDTYPE request) {
    (void)state; (void)objtype; (void)request;
    return 0;  // no caller-chosen IDs (as the default)
}
// Names live until the graph closes (its string dictionary frees them): nothing to do per object.
static inline void bvz_id_free(void *state, int objtype, IDTYPE id) { (void)state; (void)objtype; (void)id; }
static inline char *bvz_id_print(void *state, int objtype, IDTYPE id) {
    (void)objtype;
    bvz_id_state *st = (bvz_id_state *)state;
    if (st == NULL || id % 2 != 0 || id == 0 || id / 2 > st->count) return NULL;
    return st->names[id / 2 - 1];
}
static inline void bvz_id_close(void *state) {
    bvz_id_state *st = (bvz_id_state *)state;
    if (st == NULL) return;
    free(st->names);
    free(st->slots);
    free(st);
}
static inline void bvz_id_register(void *state, int objtype, void *obj) { (void)state; (void)objtype; (void)obj; }

static Agiddisc_t bvz_creation_order_iddisc = {
    bvz_id_open, bvz_id_map, bvz_id_alloc, bvz_id_free, bvz_id_print, bvz_id_close, bvz_id_register,
};

/// Opens a root graph whose objects get IDs in creation order (see above), so subgraphs keep the
/// order they were created in and output does not depend on memory addresses.
///
/// The graph's string dictionary (every name and attribute value, interned with a reference
/// count) is switched from cdt's splay tree to its hash set: cgraph only searches, inserts and
/// deletes it by key, never iterates it in order, so nothing visible changes, while a tree of
/// several hundred thousand distinct strings (a large timeline's positions, ids and tooltips)
/// made every attribute set cost two tree searches with `strcmp` on cold memory.
//
// A hash table grows by reallocation, which cgraph's memory function for dictionaries does not
// do (it frees the old block and returns NULL), so the dictionary gets a copy of its discipline
// with a realloc-based one; cgraph frees everything with free() as before.
static inline void *bvz_dict_memory(Dt_t *dt, void *p, size_t size, Dtdisc_t *disc) {
    (void)dt; (void)disc;
    if (size == 0) { free(p); return NULL; }
    return realloc(p, size);
}
// A copy of cgraph's string discipline, shared by all graphs (used behind the renderer's lock).
// Function-local, so it is emitted with the code that uses it.
static inline Dtdisc_t *bvz_strdict_disc(void) {
    static Dtdisc_t disc;
    return &disc;
}

static inline Agraph_t *bvz_agopen(const char *name, Agdesc_t desc) {
    Agdisc_t disc = { &AgMemDisc, &bvz_creation_order_iddisc, &AgIoDisc };
    Agraph_t *g = agopen((char *)name, desc, &disc);
    if (g == NULL) return NULL;
#if !defined(GRAPHVIZ_VERSION_MAJOR)
    // Graphviz 2.4x (Debian 12's 2.42/2.43), whose layout of Agclos_t and string discipline this
    // was checked against (valgrind-clean); later versions reworked both and keep their own.
    if (g->clos->strdict == NULL) agstrfree(g, agstrdup(g, ""));  // created on first use
    Dict_t *dict = g->clos->strdict;
    if (dict != NULL) {
        Dtdisc_t *copy = bvz_strdict_disc();
        *copy = *dtdisc(dict, NULL, 0);
        copy->memoryf = bvz_dict_memory;
        dtdisc(dict, copy, DT_SAMECMP | DT_SAMEHASH);
        dtmethod(dict, Dtset);
    }
#endif
    return g;
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

typedef struct { char *buf; size_t len, cap; int failed; } bvz_buffer;
static inline ssize_t bvz_buffer_write(void *cookie, const char *data, size_t size) {
    bvz_buffer *b = (bvz_buffer *)cookie;
    if (size > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : (size_t)1 << 16;
        while (cap - b->len < size) cap *= 2;
        char *grown = (char *)realloc(b->buf, cap);
        if (grown == NULL) { b->failed = 1; return -1; }
        b->buf = grown;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, data, size);
    b->len += size;
    return (ssize_t)size;
}
#endif

/// Renders a laid-out graph into a malloc'd buffer (gvRenderData grows its buffer a page at a
/// time, quadratic for large SVGs). Returns 0 on success; free the buffer with free().
static inline int bvz_render_memstream(GVC_t *gvc, Agraph_t *g, const char *format, char **out, size_t *len) {
    *out = NULL;
    *len = 0;
#if defined(__GLIBC__)
    bvz_buffer b = { NULL, 0, 0, 0 };
    bvz_cookie_io_t io;
    memset(&io, 0, sizeof io);
    io.write = bvz_buffer_write;
    FILE *f = bvz_fopencookie(&b, "w", io);
    if (f == NULL) return -1;
    int rc = gvRender(gvc, g, format, f);
    if (fclose(f) != 0 || b.failed) rc = -1;
    if (rc == 0 && b.buf == NULL) {  // nothing written: an empty buffer, not NULL (NULL is failure)
        b.buf = (char *)malloc(1);
        if (b.buf == NULL) rc = -1;
    }
    if (rc != 0) { free(b.buf); return rc; }
    *out = b.buf;
    *len = b.len;
    return 0;
#else
    FILE *f = open_memstream(out, len);
    if (f == NULL) return -1;
    int rc = gvRender(gvc, g, format, f);
    if (fclose(f) != 0) rc = -1;
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
