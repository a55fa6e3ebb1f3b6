import ArgumentParser
import BoardyImport
import Foundation

/// `import` on a generated app: `modules` modules of `files` Swift files each, about 100 lines a
/// file, in Boardy's style (ids, IO helpers, a board per file activating and handling its
/// neighbours, a registration file per module, UI code around them).
struct ImportBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Imports a generated 2,000-file, 200,000-line Boardy app (IO helpers, BoardInput helpers, delegate extensions, plugins) and reports seconds, cores used and peak memory.",
        discussion: "Timed: AppImporter.importApp (discovery, parsing on every core, resolution). cpu_cores_used is (user + system CPU time) / wall time of the timed runs.")

    @Option(help: "Modules.") var modules = 20
    @Option(help: "Board files per module.") var files = 100
    @Option(help: "Runs; the median is reported.") var runs = 3

    static func boardFile(module m: Int, index i: Int, files: Int) -> String {
        let name = "M\(m)B\(i)"
        let next = "M\(m)B\((i + 1) % files)"
        let other = "M\((m + 1) % 20)B\(i)"
        var lines: [String] = [
            "//", "//  \(name)Board.swift", "//  Module\(m)", "//", "", "import Boardy", "import Foundation", "import UIKit", "",
            "extension BoardID {", "    static let pub\(name): BoardID = \"pub.mod.Module\(m).\(name)\"",
            "    static let pub\(name)Child: BoardID = \"pub.mod.Module\(m).\(name).Child\"", "}", "",
            "extension MotherboardType where Self: FlowManageable {",
            "    func io\(name)(_ identifier: BoardID = .pub\(name)) -> MainboardGenericDestination<String, \(name)Output, Void, Void> {",
            "        MainboardGenericDestination(destinationID: identifier, mainboard: self)", "    }", "}", "",
            "enum \(name)Output {", "    case done", "    case cancelled", "}", "",
            "final class \(name)Board: ModernContinuableBoard, GuaranteedBoard, GuaranteedOutputSendingBoard {",
            "    typealias InputType = String", "    typealias OutputType = \(name)Output", "",
            "    init(identifier: BoardID, producer: ActivatableBoardProducer) {",
            "        super.init(identifier: identifier, boardProducer: producer)", "        registerFlows()",
            "        motherboard.installBoard(\(name)Child())", "    }", "",
            "    func activate(withGuaranteedInput input: String) {",
            "        let viewController = \(name)ViewController(title: input)", "        motherboard.putIntoContext(viewController)",
            "        rootViewController.show(viewController)", "    }", "",
            "    private func registerFlows() {",
            "        motherboard.io\(next)().flow.addTarget(self) { target, output in", "            switch output {",
            "            case .done:", "                target.motherboard.io\(other)().activation.activate(with: \"next\")",
            "            case .cancelled:", "                target.complete(false)", "            }", "        }", "    }", "",
            "    func didTapNext() {", "        motherboard.io\(next)().activation.activate(with: \"from \(name)\")", "    }", "}", "",
            // Activation values as apps write them: BoardInput helpers (one carrying another as
            // its input), called from a delegate extension of the board.
            "extension BoardInput {", "    static var in\(name): BoardInput<Void> { BoardInput<Void>(target: .pub\(name)) }",
            "    static func via\(name)<T>(then next: BoardInput<T>) -> BoardInput<BoardInput<T>> { BoardInput<BoardInput<T>>(target: .pub\(name), input: next) }", "}", "",
            "extension \(name)Board: \(name)ViewDelegate {", "    func didTapOther() {", "        nextToBoard(.via\(next)(then: .in\(other)))", "    }", "}", "",
            // Round two (issue 45): a board installed as an instance whose init fixes its id,
            // and an app enum whose cases name targets through an identifier switch.
            "final class \(name)Child: Board, ActivatableBoard {", "    init() {", "        super.init(identifier: .pub\(name)Child)", "    }", "",
            "    func activate(withOption option: Any?) {", "        nextToBoard(model: \(name)Target.onward(\"child\"))", "    }", "}", "",
            "enum \(name)Target: BoardInputModel {", "    case back", "    case onward(String)", "",
            "    var identifier: BoardID {", "        switch self {", "        case .back: return .pub\(name)", "        case .onward: return .pub\(next)", "        }", "    }", "",
            "    var option: Any? { nil }", "}", "",
            "final class \(name)ViewController: UIViewController {", "    private let label = UILabel()", "    private let button = UIButton(type: .system)",
            "    init(title: String) {", "        super.init(nibName: nil, bundle: nil)", "        self.title = title", "    }", "",
            "    required init?(coder: NSCoder) { nil }", "",
        ]
        // UI code: what most of an app's lines are.
        var k = 0
        while lines.count < 98 {
            lines += [
                "    func layout\(k)() {", "        label.text = \"\\(title ?? \"\") \(k)\"", "        label.frame = CGRect(x: \(k), y: \(k * 2), width: 100, height: 20)",
                "        button.isEnabled = label.text?.isEmpty == false", "    }",
            ]
            k += 1
        }
        lines += ["}", ""]
        return lines.joined(separator: "\n")
    }

    static func registrations(module m: Int, files: Int) -> String {
        var lines = ["import Boardy", "", "public struct Module\(m)Plugin: ModulePlugin {",
                     "    public enum ServiceType {", "        case `default`", "", "        var identifier: BoardID {", "            switch self {",
                     "            case .default: return .pubM\(m)B0", "            }", "        }", "    }", "",
                     "    let service: ServiceType", "", "    public init(service: ServiceType) {", "        self.service = service", "    }", "",
                     "    public var identifier: BoardID { service.identifier }", "", "    public func apply(for main: MainComponent) {",
                     "        let producer = main.producer", "        switch service {", "        case .default:",
                     "            producer.registerBoard(service.identifier) { identifier in M\(m)B0Board(identifier: identifier, producer: producer) }",
                     "        }"]
        for i in 1..<files {
            lines.append("        producer.registerBoard(.pubM\(m)B\(i)) { identifier in M\(m)B\(i)Board(identifier: identifier, producer: producer) }")
        }
        lines += ["    }", "}", "", "let module\(m)Plugins: [ModulePlugin] = [Module\(m)Plugin(service: .default)]", ""]
        return lines.joined(separator: "\n")
    }

    /// Writes the app under a new temporary folder; returns it and its line count.
    static func generate(modules: Int, files: Int) throws -> (URL, files: Int, lines: Int) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("boardy-bench-import-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        var count = 0
        var lines = 0
        for m in 0..<modules {
            let dir = root.appendingPathComponent("Module\(m)/Sources")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for i in 0..<(files - 1) {
                let text = boardFile(module: m, index: i, files: files - 1)
                try text.write(to: dir.appendingPathComponent("M\(m)B\(i)Board.swift"), atomically: false, encoding: .utf8)
                lines += text.split(separator: "\n", omittingEmptySubsequences: false).count
                count += 1
            }
            let reg = registrations(module: m, files: files - 1)
            try reg.write(to: dir.appendingPathComponent("Module\(m)Plugin.swift"), atomically: false, encoding: .utf8)
            lines += reg.split(separator: "\n", omittingEmptySubsequences: false).count
            count += 1
        }
        return (root, count, lines)
    }

    func run() throws {
        let (root, count, lines) = try Self.generate(modules: modules, files: files)
        defer { try? FileManager.default.removeItem(at: root) }
        var seconds: [Double] = []
        var cores: [Double] = []
        var app: ImportedApp?
        for _ in 0..<runs {
            let cpu0 = cpuSeconds()
            let t0 = now()
            app = try AppImporter.importApp([root.path])
            let wall = now() - t0
            seconds.append(wall)
            cores.append((cpuSeconds() - cpu0) / wall)
        }
        var usage = rusage()
        getrusage(rusageSelf, &usage)
        report([
            ("files", "\(count)"), ("lines", "\(lines)"), ("boards", "\(app?.boards.count ?? 0)"), ("edges", "\(app?.edges.count ?? 0)"),
            ("import_seconds", fmt(median(seconds))), ("lines_per_second", fmt(Double(lines) / median(seconds), 0)),
            ("cpu_cores_used", fmt(median(cores), 2)), ("cores_available", "\(ProcessInfo.processInfo.activeProcessorCount)"),
            ("peak_rss_mb", fmt(Double(usage.ru_maxrss) / 1024, 1)),
        ])
    }

    private func cpuSeconds() -> Double {
        var u = rusage()
        getrusage(rusageSelf, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }
}

#if os(Linux)
    let rusageSelf = RUSAGE_SELF.rawValue
#else
    let rusageSelf = RUSAGE_SELF
#endif
