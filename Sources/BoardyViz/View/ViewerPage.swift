/// The viewer page's markup, styles and script, written by us: no library, nothing fetched.
/// The data goes between `head` and `tail`, in `<script id="data" type="application/json">`.
///
/// The page is kept as real files in `View/Page` (view.html, view.css, view.js); the
/// EmbedViewerPage build plugin compiles them in as `head` and `tail` (ViewerPage+Files.swift,
/// generated), and `make test` checks the script with `node --check`.
///
/// Rules the script keeps (the page's safety rests on them): trace text reaches the document only
/// through `textContent` (and `new Option(text)`, which sets text too); no attribute ever holds
/// trace text; no HTML is ever parsed from data. Colours and shapes come from our own tables.
enum ViewerPage {}
