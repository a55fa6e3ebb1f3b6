#if canImport(Glibc)
    import Glibc
#endif

/// What every motherboard of one app shares: the scheduler that owns time, the observer that
/// receives the trace, the `seq` counter, and the one work stack on which all emissions are
/// processed depth-first in emission order (as Boardy's synchronous calls are, but without
/// recursion, so a chain of 100,000 activations cannot overflow the stack).
///
/// Nested motherboards (continuous boards) and every motherboard of a ``PluginLauncher`` share
/// their parent's runtime; application-scope barriers live here, so two launchers never share
/// them.
public final class BoardyRuntime {
    /// The scheduler that owns time.
    public let scheduler: any Scheduler
    /// The observer that receives every event, if any. With none, no event is built.
    public let observer: (any TraceObserver)?
    /// Where Boardy's debug log goes, if anywhere: by default, standard output in a DEBUG build
    /// whose environment has `BOARDY_LOG_ENABLED=YES` (as in Boardy); nil prints nothing.
    public let debugLog: BoardyDebugLog?

    // The engine's state is confined to the thread that drives it and never accessed
    // overlappingly, so the hot properties skip Swift's dynamic exclusivity checks (they cost
    // about 15% of an activation; see BENCHMARKS.md).

    /// When the last outside stimulus was recorded (the horizon of a run counts from it).
    @exclusivity(unchecked) public private(set) var lastStimulusTime: TraceTime = .zero
    /// The `seq` of the last event recorded.
    @exclusivity(unchecked) public private(set) var lastSeq = 0
    /// The `seq` of the event in whose context code runs now (the cause of what it emits).
    @exclusivity(unchecked) var currentCause = 0

    @exclusivity(unchecked) private var stack = WorkStack(capacity: 64)
    @exclusivity(unchecked) private var pending = WorkStack(capacity: 16)
    @exclusivity(unchecked) private(set) var isProcessing = false
    /// Boards the engine removed during a run, kept until the stack is empty (work for their
    /// inner motherboards may still be waiting on it).
    @exclusivity(unchecked) private var retired: [AnyObject] = []

    /// A runtime on `scheduler` (a fresh ``VirtualScheduler`` by default) reporting to `observer`.
    /// The scheduler when it is a ``VirtualScheduler``: its clock is read directly, without a
    /// protocol call, for every event.
    private let virtualClock: Unmanaged<VirtualScheduler>?

    /// The current time on the scheduler's clock.
    @inline(__always) var now: TraceTime {
        if let virtualClock { return virtualClock._withUnsafeGuaranteedRef { $0.now } }
        return scheduler.now
    }

    /// How work a board emits while the engine processes is run.
    public enum Processing: Sendable {
        /// Queued, and run right after the step that emitted it, depth first, in emission order:
        /// no call stack grows with a flow's length (a 100,000-board chain runs), and what a
        /// board does after an emission cannot see the emission's effects yet. The default of a
        /// runtime made with a scheduler or an observer.
        case stacked
        /// Run at once, before the emitting call returns, as Boardy's nested calls do (up to
        /// ``BoardyRuntime/maxNesting`` deep, then queued as `stacked`): the default of a
        /// motherboard made without a runtime.
        case immediate
    }

    /// How emitted work runs.
    public let processing: Processing
    /// What a misuse of Boardy's API does (``MisusePolicy``).
    public let misusePolicy: MisusePolicy

    /// Where Boardy's warnings go: into the debug log among its records, else to Boardy's
    /// console (``BoardyConsole``) alone; nowhere for the tools' runtimes (``MisusePolicy/ignore``).
    var warningLog: BoardyDebugLog? {
        if let debugLog { return debugLog }
        return misusePolicy == .ignore ? nil : BoardyConsole.warningsOnly
    }
    private let immediate: Bool
    /// How deep `immediate` processing nests before it queues: shallow enough for a worker
    /// thread's 512 KB stack in a debug build (a 100,000-board chain still runs).
    public static let maxNesting = 64
    @exclusivity(unchecked) private var nesting = 0
    @exclusivity(unchecked) private var drainSteps = 0
    @exclusivity(unchecked) private var drainStopped = false

    /// A runtime on `scheduler` (a fresh ``VirtualScheduler`` by default) reporting to
    /// `observer`, running emitted work as `processing` says; a misuse of Boardy's API is
    /// handled as `misuse` says (Boardy's trap by default).
    public init(
        scheduler: any Scheduler = VirtualScheduler(), observer: (any TraceObserver)? = nil, processing: Processing = .stacked,
        debugLog: BoardyDebugLog? = .fromEnvironment, misuse: MisusePolicy = .trap
    ) {
        self.misusePolicy = misuse
        self.processing = processing
        self.debugLog = debugLog
        immediate = processing == .immediate
        self.scheduler = scheduler
        self.tracing = observer != nil
        if observer != nil { batch.reserveCapacity(16) }
        // Unretained: `scheduler` (a strong reference to the same object) keeps it alive.
        self.virtualClock = (scheduler as? VirtualScheduler).map { Unmanaged.passUnretained($0) }
        self.observer = observer
        prefaults = observer?.keepsBatches ?? false
        // Only a recorder that keeps payloads as they are: a policy runs user code, which must
        // not run while a batch is half moved (nor under the recorder's lock).
        sink = (observer as? TraceRecorder).flatMap { $0.keepsAll ? $0 : nil }
        sinkBatch = .allocate(capacity: sink == nil ? 1 : Self.sinkBatchSize)
        // Unretained: the runtime removes the handler when it goes.
        quiescenceToken = scheduler.onQuiescence { [unowned(unsafe) self] in self.reportStuckBarriers() }
    }

    /// A counterfactual hook: called with each barrier resolution (its identifier and verdict)
    /// right before it is recorded; what it returns is the verdict the run goes on with. Replay's
    /// `--flip` uses it to invert one verdict. Nil (the default) costs one check per resolution.
    public var barrierVerdictOverride: ((_ barrier: String, _ passed: Bool) -> Bool)?

    /// Whether events are being recorded.
    @inline(__always) var isTracing: Bool { tracing }
    private let tracing: Bool

    /// Records an event and returns its `seq` (0 when nothing observes).
    @inline(__always)
    @discardableResult
    func record(
        _ mb: Motherboard, cause: Int, _ body: @autoclosure () -> TraceEvent.Body, extra: @autoclosure () -> JSONObject = JSONObject()
    ) -> Int {
        guard isTracing else { return 0 }
        // Written out rather than calling `emit`: building the event in place here measurably
        // beats passing its parts on (recorder overhead 1.11 vs 1.13–1.15, BENCHMARKS.md).
        lastSeq += 1
        let seq = lastSeq
        if sink != nil {
            if building || sinkCount >= Self.sinkBatchSize {
                // Recorded by code that runs while another event is built (a payload's
                // conversion, a scheduler's clock): built whole first, placed after it.
                appendToSink(TraceEvent(seq: seq, t: now, mb: mb.path.rawValue, cause: cause == 0 ? nil : cause, body: body(), extra: extra()))
                return seq
            }
            // Built straight into its slot, reserved first: code its parts run may record events
            // of its own, which go after it and flush nothing until it is whole.
            let slot = sinkCount
            sinkCount += 1
            building = true
            (sinkBatch + slot).initialize(
                to: TraceEvent(seq: seq, t: now, mb: mb.path.rawValue, cause: cause == 0 ? nil : cause, body: body(), extra: extra()))
            building = false
            if !isProcessing || sinkCount >= Self.sinkBatchSize || !sinkOverflow.isEmpty { flushEvents() }
            return seq
        }
        deliver(TraceEvent(seq: seq, t: now, mb: mb.path.rawValue, cause: cause == 0 ? nil : cause, body: body(), extra: extra()))
        return seq
    }

    /// Numbers an event, stamps it with the clock and hands it on: how every event other than
    /// the engine's own (above) is recorded (callers have checked ``isTracing``).
    @inline(__always)
    private func emit(mb: String, cause: Int, _ body: consuming TraceEvent.Body, extra: consuming JSONObject) -> Int {
        lastSeq += 1
        deliver(TraceEvent(seq: lastSeq, t: now, mb: mb, cause: cause == 0 ? nil : cause, body: body, extra: extra))
        return lastSeq
    }

    /// Events of the current step, handed to the observer in one call when the work stack is
    /// empty (or the batch is full): one lock per step instead of one per event, and a recorder
    /// moves the events in without copying them. Observers see every event before control
    /// returns to whoever started the step.
    @exclusivity(unchecked) private var batch: [TraceEvent] = []
    static let batchSize = 512
    /// A recorder's batch, 32 KiB: measured, a larger batch records faster (recorder overhead
    /// 1.10 at 128 events, 1.07–1.08 at 256, 400, 512 or 1,024), and this one stays under the
    /// size at which `malloc` maps memory of its own for each runtime (BENCHMARKS.md, issue 34,
    /// fifth pass).
    static let sinkBatchSize = 256

    @inline(__always) private func deliver(_ event: consuming TraceEvent) {
        if sink != nil {
            appendToSink(event)
            return
        }
        batch.append(event)
        if !isProcessing || batch.count >= Self.batchSize { flushEvents() }
    }

    /// The observer when it is a ``TraceRecorder``: a batch is built in memory the runtime
    /// keeps (`sinkBatch`, `sinkCount` events) and moved into the recorder, without an array
    /// per batch; the recorder keeps the events in memory it maps for them.
    private let sink: TraceRecorder?
    @exclusivity(unchecked) private var sinkBatch: UnsafeMutablePointer<TraceEvent>
    @exclusivity(unchecked) private var sinkCount = 0
    /// Whether an event is being built into its reserved slot (nothing is flushed meanwhile).
    @exclusivity(unchecked) private var building = false
    /// Events recorded while one was being built and the batch was full: they follow the batch.
    @exclusivity(unchecked) private var sinkOverflow: [TraceEvent] = []

    /// Appends a whole event to the recorder's batch (after it when the batch is full, which
    /// happens only while an event is being built).
    @inline(__always) private func appendToSink(_ event: consuming TraceEvent) {
        if sinkCount < Self.sinkBatchSize {
            (sinkBatch + sinkCount).initialize(to: event)
            sinkCount += 1
        } else {
            sinkOverflow.append(event)
        }
        if !isProcessing || sinkCount >= Self.sinkBatchSize { flushEvents() }
    }

    /// Hands the collected events to the observer: the buffer itself, so a recorder can move
    /// the events out instead of copying them; the next buffer reuses the memory just freed.
    func flushEvents() {
        if let sink {
            // Not while an event is being built: its slot is reserved and not yet written.
            guard !building else { return }
            if sinkCount > 0 {
                let n = sinkCount
                sinkCount = 0
                sink.record(moving: sinkBatch, count: n)
            }
            if !sinkOverflow.isEmpty {
                var overflow: [TraceEvent] = []
                swap(&overflow, &sinkOverflow)
                sink.record(contentsOf: overflow)
            }
            return
        }
        guard let observer, !batch.isEmpty else { return }
        var out: [TraceEvent] = []
        // A full batch's buffer after a large step; after a small one, one as small (a run of
        // many small steps, such as an explorer's thousands of short runs, does not map and
        // unmap a full batch's memory for each of them).
        out.reserveCapacity(batch.count >= Self.batchSize / 4 ? Self.batchSize : max(16, batch.count))
        if prefaults { prefault(&out) }
        swap(&out, &batch)
        observer.record(contentsOf: out)
    }

    /// Whether batch buffers are prefaulted: only for an observer that keeps them (each is new
    /// memory then; an observer that lets them go gets the same memory back from the allocator,
    /// already mapped, and the call would be wasted).
    private let prefaults: Bool

    /// Asks the kernel to map a fresh batch buffer's pages in one call (Linux 5.14+), instead of
    /// one page fault per 4 KiB as events are written into it: a recorder keeps every batch, so
    /// each is new memory, and those faults were a sixth of a simulation. Nothing happens
    /// elsewhere, or when the kernel says no.
    ///
    /// Only memory above what was prefaulted before: the allocator hands out fresh memory at the
    /// top of its heap, and memory it hands out again (a recorder emptied and refilled) is mapped
    /// already, where the call would be wasted.
    @inline(__always) private func prefault(_ buffer: inout [TraceEvent]) {
        #if canImport(Glibc)
            let bytes = buffer.capacity * MemoryLayout<TraceEvent>.stride
            guard bytes >= 4 * Self.pageSize else { return }
            let pageSize = Self.pageSize
            let done = prefaultedUpTo
            let mapped: Int? = buffer.withUnsafeMutableBufferPointer { b in
                guard let base = b.baseAddress, Int(bitPattern: base) >= done else { return nil }
                // Whole pages inside the buffer only.
                let start = (Int(bitPattern: base) + pageSize - 1) & ~(pageSize - 1)
                let end = (Int(bitPattern: base) + bytes) & ~(pageSize - 1)
                guard end > start, let p = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
                _ = madvise(p, end - start, 23)  // MADV_POPULATE_WRITE
                return end
            }
            if let mapped { prefaultedUpTo = mapped }
        #endif
    }

    /// The end of the last batch buffer prefaulted.
    @exclusivity(unchecked) private var prefaultedUpTo = 0

    #if canImport(Glibc)
        static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    #endif

    /// Records what a board emits after its motherboard was released: it goes nowhere, but the
    /// trace says so (`"dropped":"motherboard-released"`).
    func recordReleased(_ emission: Board.Emission, from board: Board, path: MotherboardPath) {
        if let log = warningLog { Motherboard.logOrphan(log, of: board, emission) }
        guard isTracing else { return }
        let id = board.identifier.rawValue
        let body: TraceEvent.Body
        var extra: JSONObject = ["dropped": "motherboard-released"]
        switch emission {
        case .output(let v): body = .outputSent(board: id, output: TraceValue.json(v) ?? .null)
        case .flowAction(let v):
            body = .outputSent(board: id, output: TraceValue.json(v) ?? .null)
            extra["flowAction"] = true
        case .activate(let target, let input):
            body = .activationRequested(board: target.rawValue, source: id, input: TraceValue.json(input))
        case .command(let target, let c): body = .commandSent(board: target.rawValue, command: TraceValue.json(c) ?? .null)
        case .complete(let done): body = .boardCompleted(board: id, success: done)
        case .cancelled(let reason, _): body = .activationCancelled(board: id, reason: reason)
        }
        _ = emit(mb: path.rawValue, cause: currentCause, body, extra: extra)
    }

    // MARK: Barriers

    /// Every barrier run of the app (both scopes, all motherboards).
    let barriers = BarrierCoordinator()

    /// What waits on what now: empty when no activation waits on a barrier.
    public var waitForGraph: WaitForGraph { barriers.graph }

    /// Records a `stuck` event for each barrier still open (the scheduler calls this when it has
    /// nothing left to run; call it yourself after driving a scheduler by other means).
    public func reportStuckBarriers() {
        guard !barriers.isEmpty else { return }
        barriers.reportStuck(runtime: self)
        flushEvents()
    }

    /// Records every barrier still open as `stuck` with `extra` fields (a simulation stopped at
    /// `--until` adds `"until": true`), whether or not it was reported before.
    public func reportOpenBarriers(extra: JSONObject) {
        guard !barriers.isEmpty else { return }
        barriers.reportStuck(runtime: self, extra: extra, force: true)
        flushEvents()
    }

    private var quiescenceToken: Int?

    /// Ends the app's life after a run that is over (a simulation, a replay): drops the barrier
    /// runs still open, with the activations waiting in them, and what is still scheduled when
    /// the scheduler is a ``VirtualScheduler``. A waiting activation holds its motherboard, which
    /// holds this runtime: without this, a run that ends with a stuck barrier would keep the
    /// whole app alive. Nothing is recorded; call it after the stuck reports.
    public func tearDown() {
        barriers.removeAll()
        stack.removeAll()
        pending.removeAll()
        retired.removeAll()
        (scheduler as? VirtualScheduler)?.removeAllPending()
    }

    /// Records an event from a component beside the engine (such as the dispatch layer) under
    /// motherboard path `mb`, caused by `cause` (by default the current cause). Returns its `seq`
    /// (0 when nothing observes).
    @discardableResult
    public func recordEvent(mb: MotherboardPath = .main, cause: Int? = nil, _ body: @autoclosure () -> TraceEvent.Body, extra: JSONObject = JSONObject())
        -> Int
    {
        guard isTracing else { return 0 }
        return emit(mb: mb.rawValue, cause: cause ?? currentCause, body(), extra: extra)
    }

    /// The `seq` of the event in whose context code runs now (0 outside a traced step).
    public var currentTraceCause: Int { currentCause }

    /// Schedules `action` after `delay` on the scheduler; it runs with the current cause.
    public func scheduleTraced(after delay: TraceDuration, _ action: @escaping () -> Void) {
        schedule(after: delay, action)
    }

    /// Records an outside stimulus (a script step, a test's call) and returns its `seq`, to be
    /// passed as the cause of what it starts.
    @discardableResult
    public func recordStimulus(_ action: StimulusAction, fields: JSONObject = JSONObject(), mb: MotherboardPath = .main) -> Int {
        recordStimulus(named: action.rawValue, fields: fields, mb: mb)
    }

    /// Records an outside stimulus whose action is not one of ours (a replay reports it as one it
    /// cannot apply) and returns its `seq`.
    @discardableResult
    public func recordStimulus(named action: String, fields: JSONObject = JSONObject(), mb: MotherboardPath = .main) -> Int {
        lastStimulusTime = now
        guard isTracing else { return 0 }
        return emit(mb: mb.rawValue, cause: 0, .stimulus(action: action, fields: fields), extra: JSONObject())
    }

    /// Runs `body` with `cause` as the cause of what it emits.
    public func withCause<R>(_ cause: Int, _ body: () throws -> R) rethrows -> R {
        let saved = currentCause
        currentCause = cause
        defer { currentCause = saved }
        return try body()
    }

    /// Schedules `action` after `delay`, tagged for an explorer when `tag` gives one (on a
    /// ``VirtualScheduler``); it runs with the current cause.
    public func scheduleTraced(after delay: TraceDuration, tag: ScheduleTag?, _ action: @escaping () -> Void) {
        guard let virtual = scheduler as? VirtualScheduler, let tag else { return schedule(after: delay, action) }
        let cause = currentCause
        virtual.schedule(after: delay, tag: tag) { self.withCause(cause) { action() } }
    }

    /// Schedules `action` at some time from `earliest` to `latest` from now (see
    /// ``VirtualScheduler/schedule(between:and:tag:_:)``; on another scheduler, at `earliest`);
    /// it runs with the current cause.
    public func scheduleTraced(between earliest: TraceDuration, and latest: TraceDuration, tag: ScheduleTag, _ action: @escaping () -> Void) {
        guard let virtual = scheduler as? VirtualScheduler else { return schedule(after: earliest, action) }
        let cause = currentCause
        virtual.schedule(between: earliest, and: latest, tag: tag) { self.withCause(cause) { action() } }
    }

    /// Schedules `action` after `delay`; it runs with the current cause.
    func schedule(after delay: TraceDuration, _ action: @escaping () -> Void) {
        let cause = currentCause
        // Captured strongly: a weak reference would slow every retain of the runtime.
        scheduler.schedule(after: delay) { self.withCause(cause) { action() } }
    }

    deinit {
        if let quiescenceToken { scheduler.removeQuiescenceHandler(quiescenceToken) }
        stack.free()
        pending.free()
        sinkBatch.deinitialize(count: sinkCount)
        sinkBatch.deallocate()
    }

    /// Keeps `object` alive until the work stack is empty.
    func keepAlive(_ object: AnyObject) {
        if isProcessing { retired.append(object) }
    }

    // MARK: The work stack

    /// Queues work: during processing it waits for the current item to finish (then runs before
    /// anything queued earlier: depth first); otherwise it runs now, to completion.
    func submit(_ item: consuming WorkItem) {
        if isHalted { return }
        if isProcessing {
            if immediate {
                submitImmediately(item)
            } else {
                pending.append(item)
            }
        } else {
            stack.append(item)
            drain()
        }
    }

    /// The most work items one drain of the work stack may process (everything one outside
    /// call or one scheduled step sets off). A flow cycle whose boards emit synchronously never
    /// ends (Boardy itself overflows its stack there); past this bound the rest of the drain is
    /// dropped and a `runaway` event (a boardy-viz extension: `steps`, `dropped`) says so, caused
    /// by the item it stopped at. The 100,000-board chain takes about 400,000.
    public var maxStepsPerDrain = 1_000_000

    /// The most events a run may record: once `lastSeq` reaches it, the run is halted (a
    /// `runaway` event with `"bound": "max-events"`) and no more work is taken. Unbounded by
    /// default; ``drive(_:bounds:lastStimulus:notifyingQuiescence:unrecordedWork:while:)`` sets it from its
    /// ``RunBounds``.
    public var eventBudget = Int.max

    /// The bound that halted the run (`max-events` or `horizon`), if one did: from then on the
    /// runtime takes no more work.
    public private(set) var haltedBy: String? {
        didSet { isHalted = haltedBy != nil }
    }
    /// ``haltedBy`` as the flag `submit` reads for every work item, without an exclusivity check.
    @exclusivity(unchecked) private var isHalted = false

    /// Drops what is left of a drain that passed `limit` and records why (the cold path, kept
    /// out of the drain loop).
    @inline(never)
    private func stopRunaway(at motherboard: Motherboard, cause: Int, limit: Int, outside: Int = 0) {
        // The item it stopped at is on the stack, or one of the `outside` items off it.
        let dropped = stack.count + pending.count + outside
        stack.removeAll()
        pending.removeAll()
        record(
            motherboard, cause: cause,
            .runaway(fields: ["bound": "steps", "steps": .int(Int64(limit)), "dropped": .int(Int64(dropped))]))
    }

    /// Halts the run at a bound: what is queued is dropped, a `runaway` event names the bound
    /// (with `fields`), and no later work runs.
    @inline(never)
    public func halt(bound: String, mb: String = MotherboardPath.main.rawValue, cause: Int = 0, fields: JSONObject) {
        guard haltedBy == nil else { return }
        haltedBy = bound
        let dropped = stack.count + pending.count
        stack.removeAll()
        pending.removeAll()
        if isTracing {
            var all: JSONObject = ["bound": .string(bound)]
            for m in fields { all[m.key] = m.value }
            if dropped > 0 { all["dropped"] = .int(Int64(dropped)) }
            _ = emit(mb: mb, cause: cause, .runaway(fields: all), extra: JSONObject())
        }
        if !isProcessing { flushEvents() }
    }

    /// `immediate` processing: runs `item` now unless too deep, or something of this step already
    /// waits (then it waits too, keeping emission order). Kept out of `submit`, which stays small.
    @inline(never)
    private func submitImmediately(_ item: consuming WorkItem) {
        if nesting < Self.maxNesting && pending.isEmpty {
            runNested(item)
        } else {
            pending.append(item)
        }
    }

    /// Runs `item` now, inside the step that emitted it (`immediate` processing), under the same
    /// bounds as the drain.
    private func runNested(_ item: WorkItem) {
        if drainStopped { return }
        drainSteps += 1
        if drainSteps > maxStepsPerDrain {
            stopRunaway(at: item.motherboard, cause: item.cause, limit: maxStepsPerDrain, outside: 1)
            drainStopped = true
            return
        }
        if lastSeq >= eventBudget {
            halt(bound: "max-events", mb: item.motherboard.path.rawValue, cause: item.cause, fields: ["maxEvents": .int(Int64(eventBudget))])
            return
        }
        nesting += 1
        let saved = currentCause
        item.motherboard.process(item.action, cause: item.cause)
        currentCause = saved
        nesting -= 1
    }

    private func drain() {
        isProcessing = true
        drainStopped = false
        drainSteps = 0
        // Read once: a stored property read per item costs an exclusivity check.
        let limit = maxStepsPerDrain
        let budget = eventBudget
        var steps = 0
        let immediate = self.immediate
        var held: Motherboard?
        var heldRef: UnsafeMutableRawPointer?
        defer { withExtendedLifetime(held) {} }
        while !stack.isEmpty {
            // The top item's motherboard and cause are read in place, and its action is moved
            // out of the slot below, not copied.
            let slot = stack.top
            let ref = slot.pointee.motherboardRef
            let cause = slot.pointee.cause
            steps += 1
            if immediate {
                if drainStopped {
                    stack.dropTop()
                    break
                }
                drainSteps += 1
                steps = drainSteps
            }
            if steps > limit {
                stopRunaway(at: ref.takeUnretainedValue(), cause: cause, limit: limit)
                break
            }
            if lastSeq >= budget {
                halt(bound: "max-events", mb: ref.takeUnretainedValue().path.rawValue, cause: cause, fields: ["maxEvents": .int(Int64(budget))])
                break
            }
            // The item's motherboard is held while it works (code it runs may drop the app's
            // last reference to it), retained only when it differs from the previous item's:
            // one retain per change of motherboard, not one per item. Done before the pop:
            // letting go of the previous one may run a deinit, and nothing may run between the
            // pop and the move below.
            if ref.toOpaque() != heldRef {
                held = ref.takeUnretainedValue()
                heldRef = ref.toOpaque()
            }
            let action = stack.popActionSlot()
            let saved = currentCause
            // The action is moved out of its slot inside the closure (a local captured by the
            // closure would be borrowed, and copied into `process`).
            ref._withUnsafeGuaranteedRef { $0.process(action.move(), cause: cause) }
            currentCause = saved
            // What the item emitted runs next, in emission order (moved, not copied).
            stack.moveReversed(from: &pending)
        }
        isProcessing = false
        flushEvents()
        if !retired.isEmpty { retired.removeAll() }
    }
}
