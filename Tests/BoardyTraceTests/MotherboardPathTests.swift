import Testing

@testable import BoardyTrace

@Suite("MotherboardPath")
struct MotherboardPathTests {
    @Test("a root of any name, inner paths below it, parent and owner")
    func paths() {
        #expect(MotherboardPath.main.rawValue == "main")
        let app = MotherboardPath(root: "app")
        #expect(app.isRoot && app.parent == nil && app.owner == nil && app.belowRoot.isEmpty && app.root == "app")
        let inner = app.appending("pubPayment").appending("card")
        #expect(inner.rawValue == "app/pubPayment/card")
        #expect(!inner.isRoot)
        #expect(inner.root == "app")
        #expect(inner.owner == "card")
        #expect(inner.parent == "app/pubPayment")
        #expect(inner.belowRoot == "pubPayment/card")
        #expect(inner.components == ["app", "pubPayment", "card"])
        #expect(MotherboardPath("").isRoot)  // a hostile trace's empty name is a root, not a crash
    }
}
