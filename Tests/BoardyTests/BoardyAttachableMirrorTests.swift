import Boardy
import Dispatch
import Foundation
import Testing

/// Mirrors of Boardy's AttachableTests (named after each case; written from what it checks), and
/// what attachments mean for lifetimes: an owner keeps what is attached alive, and releases it
/// when it goes.
@Suite("Mirrors of Boardy's AttachableTests", .serialized)
struct BoardyAttachableMirrorTests {
    final class Main: NSObject, @unchecked Sendable {}
    /// `@unchecked Sendable`: no state; shared across threads only to be attached.
    final class Some: @unchecked Sendable {}
    final class Other {}

    @Test("AttachableTests.testAttachObject")
    func attachObject() {
        let some = Some()
        let main = Main()
        main.attachObject(some)
        #expect(!main.attachedObjects().isEmpty)
        let first: Some? = main.firstAttachedObject()
        #expect(first === some)
        #expect(main.lastAttachedObject(Some.self) === some)
    }

    @Test("AttachableTests.testAttachTo")
    func attachTo() {
        let some = Board(identifier: "some")
        let main = Main()
        some.attach(to: main)
        #expect(!main.attachedObjects().isEmpty)
        let first: Board? = main.firstAttachedObject()
        #expect(first === some)
    }

    @Test("AttachableTests.testMultipleAttach")
    func multipleAttach() {
        let main = Main()
        main.attachObject(Some())
        main.attachObject(Other())
        #expect(main.attachedObjects().count == 2)
        #expect(main.firstAttachedObject(Other.self) != nil)
    }

    @Test("AttachableTests.testConcurrentAttachPreservesEveryObject")
    func concurrentAttach() {
        let main = Main()
        let objects = (0..<100).map { _ in Some() }
        DispatchQueue.concurrentPerform(iterations: objects.count) { main.attachObject(objects[$0]) }
        #expect(main.attachedObjects(Some.self).count == objects.count)
    }

    /// Boardy's case clears the whole storage (`AttachableStaticStorage.removeAll()`, public here
    /// too). In this process other suites run in parallel and rely on attachments (a launcher
    /// kept alive by its window), so the mirror clears one owner's, the same storage path; the
    /// global call runs in Boardy's own file, in its own process.
    @Test("AttachableTests.testRemoveAllClearsLockedStorage")
    func removeAll() {
        let main = Main()
        main.attachObject(Some())
        #expect(!main.attachedObjects().isEmpty)
        main.detachAllObjects()
        #expect(main.attachedObjects().isEmpty)
    }

    @Test("an owner keeps what is attached alive until it goes; a new object at its address inherits nothing")
    func lifetimes() {
        weak var weakSome: Some?
        weak var weakMain: Main?
        do {
            let main = Main()
            weakMain = main
            do {
                let some = Some()
                weakSome = some
                main.attachObject(some)
            }
            #expect(weakSome != nil, "kept alive by its owner")
            main.detachObject(main.attachedObjects()[0])
            #expect(weakSome == nil, "released when detached")
            main.attachObject(Some())
        }
        #expect(weakMain == nil)
        for _ in 0..<100 { #expect(Main().attachedObjects().isEmpty) }
    }

    @Test("a launched flow lives as long as its context, not longer")
    func launcherLivesWithItsContext() {
        weak var weakMainboard: Motherboard?
        let context = Main()
        do {
            // `instantiate`, as Boardy's tests build launchers: `initialize` also makes the
            // launcher the process's shared one, which lives on.
            let launcher = PluginLauncher.with(options: .default).instantiate()
            launcher.launch(in: context)
            weakMainboard = launcher.mainboard
        }
        #expect(weakMainboard != nil, "the context keeps the launcher")
        context.detachAllObjects()
        #expect(weakMainboard == nil)
    }
}
