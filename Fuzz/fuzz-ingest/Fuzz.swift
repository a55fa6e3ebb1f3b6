import FuzzTargets

#if FUZZING
    import CFuzzerDriver

    /// The entry point: SwiftPM links an executable's `main` to `fuzz_ingest_main`; with
    /// `-sanitize=fuzzer` (make fuzz) it hands over to libFuzzer's driver.
    @_cdecl("fuzz_ingest_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var argc = argc
        var argv = argv
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzTargets.ingest(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
    }
#else
    /// Without libFuzzer: runs the files or folders given through the target once.
    @main
    struct Main {
        static func main() throws { try FuzzTargets.runCorpus(Array(CommandLine.arguments.dropFirst()), through: FuzzTargets.ingest) }
    }
#endif
