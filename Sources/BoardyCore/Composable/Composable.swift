import BoardyLock

// Boardy's Composable boards, headless. A composable motherboard lays its boards' screens out in
// one interface (UIComposable's, in Boardy): boards put UI elements to their composer, the
// motherboard passes each action on to the interface it is connected to. Headless there is no
// screen: the element actions are what the boards send (traced as their outputs), and an interface
// of your own can collect the composed elements. `UIElement`, `UIElementAction` and
// `ComposableInterface` are UIComposable's names for the UIKit-free part of its API, so board code
// written against Boardy and UIComposable compiles here.

/// One element of a composed interface (UIComposable's `UIElement`): its id, its content (a view
/// controller in an app; any object headless), its configuration, and a version that changes
/// whenever the element does. Versions count up from a process-wide counter (not a clock, so
/// runs are repeatable).
public struct UIElement: Equatable {
    /// The element's id (a board id's raw value, usually).
    public let identifier: String
    /// What it shows.
    public var contentViewController: AnyObject?
    /// How it is configured.
    public var configuration: Any?
    /// Changes whenever the element does.
    public private(set) var version: Int

    private static let versions = LockedValue(0)
    private static func nextVersion() -> Int { versions.withLockedValue { v in v += 1; return v } }

    /// An element.
    public init(identifier: String, contentViewController: AnyObject?, configuration: Any? = nil) {
        self.identifier = identifier
        self.contentViewController = contentViewController
        self.configuration = configuration
        version = Self.nextVersion()
    }

    /// An element for the board `identifier`.
    public init(identifier: BoardID, contentViewController: AnyObject?, configuration: Any? = nil) {
        self.init(identifier: identifier.rawValue, contentViewController: contentViewController, configuration: configuration)
    }

    /// Same id and version.
    public static func == (a: UIElement, b: UIElement) -> Bool { a.identifier == b.identifier && a.version == b.version }

    /// The element again, as a new version.
    public var reloaded: UIElement {
        var e = self
        e.version = Self.nextVersion()
        return e
    }

    /// The element without its content, as a new version.
    public var contentRemoved: UIElement {
        var e = reloaded
        e.contentViewController = nil
        return e
    }

    /// The element with `configuration`, as a new version.
    public func configurationUpdated(_ configuration: Any?) -> UIElement {
        var e = reloaded
        e.configuration = configuration
        return e
    }
}

/// What a board asks of its composer (UIComposable's `UIElementAction`).
public enum UIElementAction: TraceValueConvertible {
    /// Show (or replace) an element.
    case update(element: UIElement)
    /// Show the element again.
    case reload(identifier: String)
    /// Keep the element's place, without its content.
    case removeContent(identifier: String)
    /// Change the element's configuration.
    case updateConfiguration(identifier: String, configuration: Any?)

    /// The element it concerns.
    public var identifier: String {
        switch self {
        case let .update(element): return element.identifier
        case let .reload(id), let .removeContent(id), let .updateConfiguration(id, _): return id
        }
    }

    /// `{"compose": "update", "element": id}` and so on: what a trace records.
    public var traceValue: JSONValue {
        let verb: String
        switch self {
        case .update: verb = "update"
        case .reload: verb = "reload"
        case .removeContent: verb = "removeContent"
        case .updateConfiguration: verb = "updateConfiguration"
        }
        return ["compose": .string(verb), "element": .string(identifier)]
    }
}

/// An interface that lays out elements (UIComposable's `ComposableInterface`).
public protocol ComposableInterface {
    /// The elements shown now.
    var composedElements: [UIElement] { get }
    /// How elements are ordered, if at all.
    var elementSortRule: ((UIElement, UIElement) -> Bool)? { get }
    /// Shows `elements`.
    func composeInterface(elements: [UIElement])
}

/// A composable interface that is an object.
public typealias ComposableInterfaceObject = ComposableInterface & AnyObject

extension ComposableInterface {
    /// No order.
    public var elementSortRule: ((UIElement, UIElement) -> Bool)? { nil }

    /// Applies `action` to the composed elements and shows the result (an action on an element
    /// that is not shown, other than `update`, changes nothing).
    public func putUIElementAction(_ action: UIElementAction) {
        var elements = composedElements
        let index = elements.firstIndex { $0.identifier == action.identifier }
        let current = index.map { elements[$0] }
        let next: UIElement?
        switch action {
        case let .update(element): next = element
        case .reload: next = current?.reloaded
        case .removeContent: next = current?.contentRemoved
        case let .updateConfiguration(_, configuration): next = current?.configurationUpdated(configuration)
        }
        guard let next else { return }
        if let index { elements[index] = next } else { elements.append(next) }
        if let rule = elementSortRule { elements.sort(by: rule) }
        composeInterface(elements: elements)
    }
}

/// An interface object held without retaining it (UIComposable's `UIComposableAdapter`).
public struct UIComposableAdapter: ComposableInterface {
    weak var object: (any ComposableInterfaceObject)?

    /// An adapter for `object`.
    public init(object: (any ComposableInterfaceObject)?) { self.object = object }

    /// The object's elements (none once it is gone).
    public var composedElements: [UIElement] { object?.composedElements ?? [] }
    /// The object's order.
    public var elementSortRule: ((UIElement, UIElement) -> Bool)? { object?.elementSortRule }
    /// Shows the elements on the object.
    public func composeInterface(elements: [UIElement]) { object?.composeInterface(elements: elements) }
}

extension IdentifiableBoard {
    /// Asks the board's composer to apply `elementAction` (Boardy's `putToComposer`): sent to the
    /// motherboard, which passes it to its interface.
    public func putToComposer(elementAction: UIElementAction) {
        if let board = self as? Board { board.sendOutput(elementAction) } else { delegate?.board(self, didSendData: elementAction) }
    }
}

/// A motherboard whose boards compose one interface (Boardy's `ComposableMotherboardType`).
public protocol ComposableMotherboardType: MotherboardType {
    /// Connects the interface the boards' element actions go to.
    func connect(to interface: any ComposableInterface)
}

/// A composable motherboard with flows (Boardy's `FlowComposableMotherboard`).
public typealias FlowComposableMotherboard = ComposableMotherboardType & FlowManageable

/// A motherboard that passes its boards' element actions to the interface it is connected to
/// (Boardy's `ComposableMotherboard`).
open class ComposableMotherboard: Motherboard, ComposableMotherboardType {
    private var composableInterface: (any ComposableInterface)?
    private var routesElementActions = false

    /// A composable motherboard does not activate what its boards ask for: it hands the request
    /// to its flows, and the motherboard it was produced for performs it (Boardy's composable
    /// motherboard has no activation flow of its own).
    override var routesActivationRequests: Bool { false }

    /// Connects `interface` (an object is held weakly).
    public func connect(to interface: any ComposableInterface) {
        if let object = interface as? any ComposableInterfaceObject {
            composableInterface = UIComposableAdapter(object: object)
        } else {
            composableInterface = interface
        }
        guard !routesElementActions else { return }
        routesElementActions = true
        registerGeneralFlow { [weak self] (action: UIElementAction) in self?.composableInterface?.putUIElementAction(action) }
    }
}

extension ActivatableBoardProducer {
    /// A composable motherboard of its own producing with this producer, with `elementsBuilder`'s
    /// boards installed; its flow actions and activation requests go to `parent` (Boardy's
    /// `produceComposableMotherboard`).
    public func produceComposableMotherboard(
        identifier: BoardID, from parent: (any IdentifiableBoard)? = nil,
        elementsBuilder: (any ActivatableBoardProducer) -> [any ActivatableBoard] = { _ in [] }
    ) -> any FlowComposableMotherboard {
        let motherboard = ComposableMotherboard(identifier: identifier, boardProducer: self, boards: elementsBuilder(self))
        if let parent {
            motherboard.forwardActionFlow(to: parent)
            motherboard.forwardActivationFlow(to: parent)
        }
        return motherboard
    }
}

extension ModernContinuableBoard {
    /// Builds a composable sub-motherboard, configures it, puts it into `interface` and connects
    /// it (Boardy's `mountComposableMotherboard`); `interface` does not keep it alive.
    @discardableResult
    public func mountComposableMotherboard(
        to interface: any ComposableInterfaceObject, configurationBuilder: (any FlowComposableMotherboard) -> Void = { _ in }
    ) -> any FlowComposableMotherboard {
        let sub = producer.produceComposableMotherboard(identifier: identifier.appending("composable-main"), from: self)
        configurationBuilder(sub)
        sub.putIntoContext(interface)
        sub.connect(to: interface)
        return sub
    }

    /// Builds a composable sub-motherboard of the caller's own type, puts it into `interface`
    /// and connects it.
    @discardableResult
    public func mountComposableMotherboard<Mainboard: FlowComposableMotherboard>(
        to interface: any ComposableInterfaceObject, build: (any ActivatableBoardProducer) -> Mainboard
    ) -> Mainboard {
        let sub = build(producer)
        sub.putIntoContext(interface)
        sub.connect(to: interface)
        return sub
    }

    /// Mounts a composable sub-motherboard and makes `interface` keep it alive.
    @discardableResult
    public func attachComposableMotherboard(
        to interface: any AttachableObject & ComposableInterface, configurationBuilder: (any FlowComposableMotherboard) -> Void = { _ in }
    ) -> any FlowComposableMotherboard {
        let sub = mountComposableMotherboard(to: interface, configurationBuilder: configurationBuilder)
        interface.attachObject(sub)
        return sub
    }

    /// Mounts a composable sub-motherboard of the caller's own type and makes `interface` keep it
    /// alive.
    @discardableResult
    public func attachComposableMotherboard<Mainboard: FlowComposableMotherboard>(
        to interface: any AttachableObject & ComposableInterface, build: (any ActivatableBoardProducer) -> Mainboard
    ) -> Mainboard {
        let sub = mountComposableMotherboard(to: interface, build: build)
        interface.attachObject(sub)
        return sub
    }
}
