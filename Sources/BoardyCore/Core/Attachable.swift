import BoardyLock
import Foundation

/// An object others can be detached from (Boardy's `DetachableObject`).
public protocol DetachableObject: AnyObject {
    /// Stops keeping `object` alive.
    func detachObject(_ object: AnyObject)
}

/// An object that keeps others alive for as long as it lives (Boardy's `AttachableObject`): a
/// view controller holding the motherboard of the flow it shows, a window holding the launcher.
/// `NSObject` and every ``Board`` are attachable.
public protocol AttachableObject: DetachableObject {
    /// Makes `object` keep this one alive.
    func attach(to object: AnyObject)
    /// Keeps `object` alive for as long as this one lives.
    func attachObject(_ object: AnyObject)
    /// The objects this one keeps alive, in the order they were attached.
    func attachedObjects() -> [AnyObject]
    /// Stops keeping any object alive.
    func detachAllObjects()
}

/// The attachments of every object: its identity → the object (held weakly) and what it keeps
/// alive (held strongly).
///
/// Written by hand because Boardy's uses `NSMapTable.weakToStrongObjects()`, which Foundation on
/// Linux does not have. An entry whose owner has gone is dead: it is dropped when its identity is
/// next used (a new object at the same address never inherits it) and in a sweep whenever the
/// table has doubled, so what a dead owner held is released soon after it.
enum AttachmentStorage {
    struct Entry {
        weak var owner: AnyObject?
        var objects: [AnyObject]
    }

    struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweepAt = 64

        /// The live entry of `owner`, made when missing (a dead one at its identity dropped).
        mutating func entry(of owner: AnyObject) -> ObjectIdentifier {
            let id = ObjectIdentifier(owner)
            if entries[id]?.owner !== owner { entries[id] = Entry(owner: owner, objects: []) }
            if entries.count >= sweepAt {
                entries = entries.filter { $0.value.owner != nil }
                sweepAt = max(64, entries.count * 2)
            }
            return id
        }

        func objects(of owner: AnyObject) -> [AnyObject] {
            guard let e = entries[ObjectIdentifier(owner)], e.owner === owner else { return [] }
            return e.objects
        }
    }

    static let table = LockedValue(Table())

    /// Makes `owner` keep `object` alive (once, however often it is attached).
    static func attach(_ object: AnyObject, to owner: AnyObject) {
        table.withLockedValue { t in
            let id = t.entry(of: owner)
            if !(t.entries[id]?.objects.contains { $0 === object } ?? false) { t.entries[id]?.objects.append(object) }
        }
    }

    static func objects(of owner: AnyObject) -> [AnyObject] { table.withLockedValue { $0.objects(of: owner) } }

    static func detach(where condition: (AnyObject) -> Bool, from owner: AnyObject) {
        // Released outside the lock: a detached object's deinit may attach or detach in turn.
        let released: [AnyObject] = table.withLockedValue { t in
            let id = ObjectIdentifier(owner)
            guard let e = t.entries[id], e.owner === owner else { return [] }
            let (gone, kept) = (e.objects.filter(condition), e.objects.filter { !condition($0) })
            t.entries[id]?.objects = kept
            return gone
        }
        withExtendedLifetime(released) {}
    }
}

extension AttachableObject {
    /// Makes `object` keep this one alive.
    public func attach(to object: AnyObject) { AttachmentStorage.attach(self, to: object) }
    /// Keeps `object` alive for as long as this one lives.
    public func attachObject(_ object: AnyObject) { AttachmentStorage.attach(object, to: self) }
    /// The objects this one keeps alive, in the order they were attached.
    public func attachedObjects() -> [AnyObject] { AttachmentStorage.objects(of: self) }
    /// The attached objects of type `ObjectType`.
    public func attachedObjects<ObjectType>(_: ObjectType.Type = ObjectType.self) -> [ObjectType] {
        attachedObjects().compactMap { $0 as? ObjectType }
    }
    /// The first attached object of type `ObjectType`.
    public func firstAttachedObject<ObjectType>(_: ObjectType.Type = ObjectType.self) -> ObjectType? {
        attachedObjects().lazy.compactMap { $0 as? ObjectType }.first
    }
    /// The last attached object of type `ObjectType`.
    public func lastAttachedObject<ObjectType>(_: ObjectType.Type = ObjectType.self) -> ObjectType? {
        attachedObjects().reversed().lazy.compactMap { $0 as? ObjectType }.first
    }
    /// Stops keeping `object` alive.
    public func detachObject(_ object: AnyObject) { AttachmentStorage.detach(where: { $0 === object }, from: self) }
    /// Stops keeping alive the attached objects of type `ObjectType` that meet `condition`.
    public func detachObjects<ObjectType>(_: ObjectType.Type, where condition: (ObjectType) -> Bool = { _ in true }) {
        AttachmentStorage.detach(where: { ($0 as? ObjectType).map(condition) ?? false }, from: self)
    }
    /// Stops keeping alive the attached objects that meet `condition`.
    public func detachObjects(where condition: (AnyObject) -> Bool) { AttachmentStorage.detach(where: condition, from: self) }
    /// Stops keeping any object alive.
    public func detachAllObjects() { AttachmentStorage.detach(where: { _ in true }, from: self) }
}

extension NSObject: AttachableObject {}
extension Board: AttachableObject {}

/// The storage behind ``AttachableObject`` (Boardy's `AttachableStaticStorage`, public here for
/// tests that start from a clean slate).
public enum AttachableStaticStorage {
    /// Forgets every attachment (releasing what they kept alive).
    public static func removeAll() {
        let released = AttachmentStorage.table.withLockedValue { t -> [AttachmentStorage.Entry] in
            defer { t.entries = [:] }
            return Array(t.entries.values)
        }
        withExtendedLifetime(released) {}
    }
}
