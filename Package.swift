// swift-tools-version: 6.0
// boardy-viz: Boardy's board/barrier model headless, traced, simulated, rendered and replayed.
import PackageDescription

/// Platforms without CryptoKit, where SHA-256 comes from swift-crypto.
let nonApplePlatforms: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]

let package = Package(
    name: "boardy-viz",
    // The lowest platforms the library code needs (Boardy itself supports iOS 14): an app that
    // records traces keeps its deployment target. Nothing here needs more (no Synchronization,
    // no @available).
    platforms: [.macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7)],
    // What users import, one line each (README, "Products"). The other targets are internal,
    // for this package only (no product): BoardyCore, BoardyComponentKit and BoardyGraphviz
    // (`Boardy` re-exports the engine and ComponentKit, `BoardyViz` re-exports BoardyGraphviz);
    // BoardyLock and BoardyFiles, whose symbols have `package` access; the C layers
    // (CBoardyGraphviz, CBoardyTrapCatcher); and FuzzTargets for the fuzzers.
    products: [
        // Boardy's model headless: motherboards, boards, flows, barriers, ComponentKit, on a virtual clock.
        .library(name: "Boardy", targets: ["Boardy"]),
        // The trace file (JSON Lines) and the vocabulary every layer shares: events, reader, writer, recorder.
        .library(name: "BoardyTrace", targets: ["BoardyTrace"]),
        // Tealium's scoped dispatch barriers, queue and dispatchers on the engine's scheduler.
        .library(name: "BoardyDispatch", targets: ["BoardyDispatch"]),
        // Scenario files: load (JSON, YAML), build, run, check statically, explore schedules.
        .library(name: "BoardySimulation", targets: ["BoardySimulation"]),
        // Replay a trace's stimuli on a fresh engine and report the first divergence.
        .library(name: "BoardyReplay", targets: ["BoardyReplay"]),
        // Views without Graphviz: statistics, fleet statistics, Chrome/Perfetto and OTLP exports, flow models.
        .library(name: "BoardyVizCore", targets: ["BoardyVizCore"]),
        // Pictures through Graphviz: flow graphs, timelines, the HTML viewer.
        .library(name: "BoardyViz", targets: ["BoardyViz"]),
        // A Boardy app's Swift sources to its boards, flows and barriers, and their checks.
        .library(name: "BoardyImport", targets: ["BoardyImport"]),
        // Scenarios and apps meet the views: their flow models, coverage, replay against a scenario.
        .library(name: "BoardyVizSimulation", targets: ["BoardyVizSimulation"]),
        // For users' tests: replay and golden-trace helpers for Swift Testing.
        .library(name: "BoardyVizTesting", targets: ["BoardyVizTesting"]),
        // A real Boardy app's debug log (its console) read into a trace.
        .library(name: "BoardyIngest", targets: ["BoardyIngest"]),
        // For Boardy's own tests off Apple's platforms: CwlPreconditionTesting's
        // `catchBadInstruction(block:)`, catching a trap with POSIX signals.
        .library(name: "CwlPreconditionTesting", targets: ["CwlPreconditionTesting"]),
        .executable(name: "boardy-viz", targets: ["boardy-viz"]),
        .executable(name: "boardy-demo", targets: ["boardy-demo"]),
        .executable(name: "boardy-bench", targets: ["boardy-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        // Scenario files in YAML.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // `make docs`: the DocC catalogs (swift package generate-documentation).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `import`: reading apps' Swift sources (the parser only: SwiftSyntax, SwiftParser).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // Wait-time percentiles over any number of traces in bounded memory (stats over a fleet).
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // Graphviz's C library (libgvc, libcgraph), found through pkg-config.
        .systemLibrary(
            name: "CGraphviz",
            path: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"])]
        ),

        // The C layer over Graphviz's public API (2.42 to 14): opaque handles for Swift, every
        // difference between Graphviz versions chosen in one .c file.
        .target(name: "CBoardyGraphviz", dependencies: ["CGraphviz"]),
        // The platform's mutex (os_unfair_lock, pthread_mutex_t), for the modules below.
        .target(name: "BoardyLock"),
        // C helpers for tests: a trap catcher (POSIX signals) behind CwlPreconditionTesting's API,
        // and a helper process's death with its parent.
        .target(name: "CBoardyTrapCatcher"),
        .target(name: "CwlPreconditionTesting", dependencies: ["CBoardyTrapCatcher"]),
        // Opening what users hand us by what it is (regular files, streams, folders, pipes found
        // in a tree), never blocking on an open. POSIX only.
        .target(name: "BoardyFiles"),

        // Layer 1: the trace model and its JSON Lines codec. Knows nothing of boards.
        .target(
            name: "BoardyTrace",
            dependencies: [
                // SHA-256 comes from CryptoKit where the platform has it (Apple's): swift-crypto, and
                // the BoringSSL it builds, only elsewhere, so `import Boardy` in an app pulls in
                // nothing third-party but swift-collections.
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: nonApplePlatforms)),
                "BoardyLock", "BoardyFiles",
            ]
        ),
        // Layer 2: the headless Boardy engine. Reports to BoardyTrace's observer protocol.
        .target(
            name: "BoardyCore",
            dependencies: [
                "BoardyTrace",
                .product(name: "HeapModule", package: "swift-collections"),
                "BoardyLock",
            ]
        ),
        // ComponentKit's boards (tasks, flow and barrier boards), on the engine.
        .target(name: "BoardyComponentKit", dependencies: ["BoardyCore", "BoardyLock"]),
        // `import Boardy`, as in Boardy: the engine, ComponentKit and the trace model in one import.
        .target(name: "Boardy", dependencies: ["BoardyCore", "BoardyComponentKit", "BoardyTrace"]),
        // Tealium's scoped dispatch barriers, queue and dispatchers, on the engine's scheduler.
        .target(name: "BoardyDispatch", dependencies: ["BoardyCore", "BoardyTrace"]),
        // Scenarios: loading (JSON, YAML), building real engine objects, running, checking.
        .target(
            name: "BoardySimulation",
            dependencies: ["BoardyCore", "BoardyComponentKit", "BoardyDispatch", "BoardyLock", "BoardyFiles", .product(name: "Yams", package: "Yams")]
        ),
        // Rendering: a small graph model over Graphviz's C library. Knows nothing of boards.
        .target(
            name: "BoardyGraphviz",
            dependencies: ["CBoardyGraphviz", "BoardyLock"]
        ),
        // Views that need no Graphviz: trace statistics, the Chrome export, flow models (of
        // motherboards and traces).
        .target(
            name: "BoardyVizCore",
            dependencies: [
                "BoardyTrace", "BoardyLock", .product(name: "Histogram", package: "hdrhistogram-swift"),
                // OTLP's trace and span ids: SHA-256, from CryptoKit on Apple platforms.
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: nonApplePlatforms)),
            ]),
        // Pictures: flow graphs and timelines, drawn through Graphviz.
        // The viewer page is real files (View/Page: view.html, view.css, view.js), compiled in by
        // the EmbedViewerPage plugin.
        .target(
            name: "BoardyViz",
            dependencies: ["BoardyTrace", "BoardyVizCore", "BoardyGraphviz"],
            plugins: [.plugin(name: "EmbedViewerPage")]
        ),
        .executableTarget(name: "boardy-embed-page", path: "Tools/boardy-embed-page"),
        .plugin(name: "EmbedViewerPage", capability: .buildTool(), dependencies: ["boardy-embed-page"]),
        // Replay: re-run a trace's stimuli on a fresh engine, compare, report the first divergence.
        .target(name: "BoardyReplay", dependencies: ["BoardyTrace", "BoardyCore", "BoardyDispatch"]),
        // The glue between scenario files and the views and replay: a scenario's flow model, a
        // replay against a scenario. (No parser: an imported app's flow model is BoardyImport's.)
        .target(name: "BoardyVizSimulation", dependencies: ["BoardyTrace", "BoardyCore", "BoardySimulation", "BoardyVizCore", "BoardyReplay"]),
        // Import: a Boardy app's Swift sources (and its target membership) → its flow model.
        .target(
            name: "BoardyImport",
            dependencies: [
                "BoardyTrace", "BoardyLock", "BoardyFiles", "BoardyVizCore",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        // Ingest: a real Boardy app's debug log (`BOARDY_LOG_ENABLED=YES`, its console as
        // captured) into a trace.
        .target(name: "BoardyIngest", dependencies: ["BoardyTrace", .product(name: "DequeModule", package: "swift-collections")]),
        // For users' tests: replay and golden-trace helpers for Swift Testing.
        .target(name: "BoardyVizTesting", dependencies: ["BoardyReplay", "BoardyTrace", "BoardyCore"]),
        // The CLI: thin commands over the modules above.
        .executableTarget(
            name: "boardy-viz",
            dependencies: [
                "Boardy", "BoardyTrace", "BoardySimulation", "BoardyVizCore", "BoardyViz", "BoardyVizSimulation", "BoardyGraphviz", "BoardyReplay",
                "BoardyLock", "BoardyImport", "BoardyFiles", "BoardyIngest", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The quick-start demo: records the checkout sample and prints its trace.
        .executableTarget(name: "boardy-demo", dependencies: ["Boardy"]),

        .executableTarget(
            name: "boardy-bench",
            dependencies: [
                "Boardy", "BoardyTrace", "BoardySimulation", "BoardyVizCore", "BoardyViz", "BoardyVizSimulation", "BoardyGraphviz",
                "BoardyReplay", "BoardyImport", "BoardyLock", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/boardy-bench"
        ),

        // Fuzzing (`make fuzz`): the targets' bodies, and one libFuzzer executable each.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "Boardy", "BoardyTrace", "BoardyDispatch", "BoardySimulation", "BoardyReplay", "BoardyViz", "BoardyVizCore", "BoardyVizSimulation",
                "BoardyGraphviz", "BoardyIngest", "BoardyLock",
            ], path: "Fuzz/Targets"),
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        .executableTarget(name: "fuzz-trace-reader", dependencies: ["FuzzTargets", "CFuzzerDriver"], path: "Fuzz/fuzz-trace-reader"),
        .executableTarget(name: "fuzz-scenario-loader", dependencies: ["FuzzTargets", "CFuzzerDriver"], path: "Fuzz/fuzz-scenario-loader"),
        .executableTarget(name: "fuzz-barrier-settings", dependencies: ["FuzzTargets", "CFuzzerDriver"], path: "Fuzz/fuzz-barrier-settings"),
        .executableTarget(name: "fuzz-views", dependencies: ["FuzzTargets", "CFuzzerDriver"], path: "Fuzz/fuzz-views"),
        .executableTarget(name: "fuzz-pipeline", dependencies: ["FuzzTargets", "CFuzzerDriver"], path: "Fuzz/fuzz-pipeline"),
        .executableTarget(name: "fuzz-ingest", dependencies: ["FuzzTargets", "CFuzzerDriver"], path: "Fuzz/fuzz-ingest"),
        // `make fuzz-cli`: the whole pipeline on generated scenarios and their mutations, in a loop.
        .executableTarget(name: "boardy-fuzz-cli", dependencies: ["FuzzTargets", "BoardySimulation"], path: "Fuzz/boardy-fuzz-cli"),

        .testTarget(
            name: "BoardyTraceTests",
            dependencies: ["BoardyTrace", "boardy-crash-writer"]
        ),
        // A process the crash-safety test kills with SIGKILL while it records.
        .executableTarget(name: "boardy-crash-writer", dependencies: ["BoardyTrace", "CBoardyTrapCatcher"], path: "Tests/CrashWriter"),
        // Helpers shared by the test targets (a harness, golden files); not a product.
        .target(name: "BoardyTestSupport", dependencies: ["Boardy", "BoardySimulation", "BoardyVizTesting"], path: "Tests/BoardyTestSupport"),
        .testTarget(
            name: "BoardyTests",
            dependencies: ["Boardy", "BoardyCore", "BoardyLock", "BoardyTrace", "boardy-demo", "BoardyTestSupport", "CwlPreconditionTesting"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BoardyComponentKitTests",
            dependencies: ["BoardyComponentKit", "Boardy", "BoardyTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BoardyDispatchTests",
            dependencies: ["BoardyDispatch", "Boardy", "BoardyTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BoardySimulationTests",
            dependencies: [
                "BoardySimulation", "Boardy", "BoardyVizCore", "BoardyViz", "BoardyVizSimulation", "BoardyReplay", "BoardyTestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        // The CLI end to end: its commands, exit codes and files, hostile inputs, scale. Every test
        // that runs the built `boardy-viz` is here: no other test target depends on the executable.
        .testTarget(
            name: "BoardyVizCLITests",
            dependencies: [
                "BoardySimulation", "Boardy", "BoardyTrace", "BoardyVizCore", "BoardyViz", "BoardyVizSimulation", "BoardyReplay", "BoardyImport",
                "BoardyTestSupport", "FuzzTargets", "boardy-viz",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "BoardyGraphvizTests", dependencies: ["BoardyGraphviz"]),
        .testTarget(name: "BoardyLockTests", dependencies: ["BoardyLock"]),
        .testTarget(name: "BoardyFilesTests", dependencies: ["BoardyFiles"]),
        .testTarget(name: "BoardyVizCoreTests", dependencies: ["BoardyVizCore", "BoardyTrace", "BoardyTestSupport"]),
        .testTarget(
            name: "BoardyVizSimulationTests",
            dependencies: ["BoardyVizSimulation", "BoardyVizCore", "BoardySimulation", "BoardyTrace", "Boardy", "BoardyTestSupport"]
        ),
        .testTarget(
            name: "FuzzCorpusTests",
            dependencies: [
                "FuzzTargets", "BoardyTestSupport", "BoardyTrace", "BoardyVizCore", "BoardyVizSimulation", "BoardyIngest",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        .testTarget(
            name: "BoardyReplayTests",
            dependencies: ["BoardyReplay", "BoardySimulation", "BoardyVizSimulation", "Boardy", "BoardyTestSupport"]
        ),
        .testTarget(
            name: "BoardyVizTestingTests",
            dependencies: ["BoardyVizTesting", "Boardy", "BoardyComponentKit", "BoardyDispatch", "BoardyTestSupport"]
        ),
        .testTarget(
            name: "BoardyImportTests",
            dependencies: ["BoardyImport", "BoardyVizSimulation", "BoardySimulation", "BoardyVizCore", "BoardyViz", "BoardyTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BoardyIngestTests",
            dependencies: ["BoardyIngest", "BoardyTrace", "Boardy", "BoardyVizCore", "BoardyTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BoardyVizTests",
            dependencies: ["BoardyVizCore", "BoardyViz", "BoardyVizSimulation", "BoardySimulation", "Boardy", "BoardyGraphviz", "BoardyTestSupport"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
