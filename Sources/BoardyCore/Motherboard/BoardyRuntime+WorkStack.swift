// BoardyRuntime: its work stack, in memory it manages itself, and the work items on it.

/// The runtime's work stack (and the work one step emits), in memory it manages itself: the
/// drain moves each item's action out of its slot instead of copying it (copying an action
/// retains what it holds; the copies and their destruction were an eighth of an activation).
/// Written by hand: `Array` hands out an element only as a copy or as a whole moved item, whose
/// action would then be copied again into `process`.
struct WorkStack {
    private(set) var base: UnsafeMutablePointer<WorkItem>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always) var isEmpty: Bool { count == 0 }

    /// The top item's slot (the stack is not empty).
    @inline(__always) var top: UnsafeMutablePointer<WorkItem> { base + (count - 1) }

    @inline(__always) mutating func append(_ item: consuming WorkItem) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: item)
        count += 1
    }

    /// Removes the top item, leaving its action in place for the caller to move out (with
    /// `move()`, before anything is pushed) and the slot uninitialized: the rest of an item is
    /// plain data (an unretained reference and an integer; a field that needs destroying would
    /// leak here).
    @inline(__always) mutating func popActionSlot() -> UnsafeMutablePointer<WorkItem.Action> {
        count -= 1
        return (UnsafeMutableRawPointer(base + count) + Self.actionOffset).assumingMemoryBound(to: WorkItem.Action.self)
    }

    /// Where an item's action lies in it.
    private static let actionOffset = MemoryLayout<WorkItem>.offset(of: \WorkItem.action)!

    /// Moves every item of `other` onto this stack, its last first (so its first item is on
    /// top), leaving it empty.
    @inline(__always) mutating func moveReversed(from other: inout WorkStack) {
        guard other.count > 0 else { return }
        if count + other.count > capacity { grow(to: max(capacity * 2, count + other.count)) }
        var i = other.count - 1
        while i >= 0 {
            (base + count).moveInitialize(from: other.base + i, count: 1)
            count += 1
            i -= 1
        }
        other.count = 0
    }

    @inline(never) private mutating func grow(to size: Int) {
        let bigger = UnsafeMutablePointer<WorkItem>.allocate(capacity: size)
        bigger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = size
    }

    /// Destroys the top item.
    mutating func dropTop() {
        count -= 1
        (base + count).deinitialize(count: 1)
    }

    mutating func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    /// Destroys what is left and frees the memory (the owner's `deinit`).
    mutating func free() {
        removeAll()
        base.deallocate()
    }
}

/// One unit of work on the runtime's stack.
struct WorkItem {
    enum Action {
        case activate(BoardID, input: Any?, source: BoardID?, inputJSON: JSONValue?)
        /// The activation of a gate to resolve a barrier run of `node`.
        case activateGate(BoardID, input: Any?, source: BoardID?, node: GateNode)
        case output(Board, Any?, flowAction: Bool)
        case orphanOutput(Board, Any?, flowAction: Bool)
        case route(RegisteredFlow, from: BoardID, value: Any?, json: JSONValue)
        case command(BoardID, Any?)
        case completion(Board, Bool)
        case call(() -> Void)
    }

    /// Not retained (retaining a motherboard is slow once anything holds it weakly): a
    /// motherboard lives while its work is queued, because the runtime keeps the boards it removes
    /// (and their inner motherboards) alive until the stack is empty.
    ///
    /// Held as `Unmanaged`: the drain retains a motherboard once for a run of its items rather
    /// than once per item (a motherboard anything holds weakly, such as a completed board's
    /// `formerMotherboard`, has a side table, and every retain of it takes the slow path).
    let motherboardRef: Unmanaged<Motherboard>
    var action: Action
    var cause: Int

    /// The motherboard the work is for.
    var motherboard: Motherboard { motherboardRef.takeUnretainedValue() }

    init(motherboard: Motherboard, action: consuming Action, cause: Int) {
        motherboardRef = Unmanaged.passUnretained(motherboard)
        self.action = action
        self.cause = cause
    }
}
