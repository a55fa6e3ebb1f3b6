// Graphviz's C library, found through pkg-config (libgvc). Only the C target CBoardyGraphviz uses
// it, through its public headers; this module exists so that one place links Graphviz.
#ifndef BOARDY_CGRAPHVIZ_H
#define BOARDY_CGRAPHVIZ_H
#include <graphviz/graphviz_version.h>
#include <graphviz/gvc.h>
#endif
