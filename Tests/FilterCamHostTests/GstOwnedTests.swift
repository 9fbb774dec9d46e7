import CGStreamer
@testable import FilterCamHost
import XCTest

/// The owning wrappers give back exactly the references they hold: counted here on the
/// objects themselves.
final class GstOwnedTests: XCTestCase {
    override func setUp() {
        GStreamer.initialize()
    }

    private func count(_ caps: UnsafeMutablePointer<GstCaps>) -> Int32 { caps.pointee.mini_object.refcount }
    private func count(_ buffer: UnsafeMutablePointer<GstBuffer>) -> Int32 { buffer.pointee.mini_object.refcount }
    private func count(_ element: UnsafeMutablePointer<GstElement>) -> UInt32 { element.pointee.object.object.ref_count }

    func testARetainedReferenceIsGivenBackWhenTheOwnerGoes() {
        let caps = GstOwned(gst_caps_from_string("video/x-raw")!)
        do {
            let second = GstOwned(retaining: caps.pointer)
            XCTAssertEqual(count(caps.pointer), 2)
            withExtendedLifetime(second) {}
        }
        XCTAssertEqual(count(caps.pointer), 1)
    }

    func testATakenReferenceIsNotGivenBackByTheOwner() {
        let caps = GstOwned(gst_caps_from_string("video/x-raw")!)
        let handedOver: UnsafeMutablePointer<GstCaps>
        do {
            let second = GstOwned(retaining: caps.pointer)
            handedOver = second.take()
        }
        XCTAssertEqual(count(caps.pointer), 2, "the taken reference is the caller's")
        _ = GstOwned(handedOver)   // given back by a new owner
        XCTAssertEqual(count(caps.pointer), 1)
    }

    func testAReleasedReferenceIsGivenBackOnceAndAtOnce() {
        let caps = GstOwned(gst_caps_from_string("video/x-raw")!)
        do {
            let second = GstOwned(retaining: caps.pointer)
            second.release()
            XCTAssertEqual(count(caps.pointer), 1)
            second.release()
            XCTAssertEqual(count(caps.pointer), 1, "a second release gives nothing back")
        }
        XCTAssertEqual(count(caps.pointer), 1, "nor does the owner's end")
    }

    func testABufferHeldAloneIsWrittenInPlaceAndASharedOneIsCopied() {
        let buffer = GstOwned(gst_buffer_new_allocate(nil, 16, nil)!)
        XCTAssertTrue(buffer.writable() === buffer)
        let second = GstOwned(retaining: buffer.pointer)
        let copy = buffer.writable()
        XCTAssertFalse(copy === buffer)
        XCTAssertNotEqual(copy.pointer, buffer.pointer)
        XCTAssertEqual(count(buffer.pointer), 2, "the copy takes no reference of the original")
        XCTAssertEqual(count(copy.pointer), 1)
        withExtendedLifetime(second) {}
    }

    func testASampleHoldsItsBufferWhileItLives() {
        let buffer = GstOwned(gst_buffer_new_allocate(nil, 16, nil)!)
        do {
            let sample = GstOwnedSample(buffer: buffer.pointer, caps: nil, segment: nil)
            XCTAssertEqual(sample.buffer, buffer.pointer)
            XCTAssertEqual(count(buffer.pointer), 2)
        }
        XCTAssertEqual(count(buffer.pointer), 1)
    }

    func testAFloatingElementIsSunkAndGivenBack() {
        let element = gst_element_factory_make("identity", nil)!
        let kept = GstOwned(retaining: element)   // to read the count after the owner's end
        do {
            let owned = GstOwned(sinking: element)
            XCTAssertEqual(count(element), 2)
            withExtendedLifetime(owned) {}
        }
        XCTAssertEqual(count(kept.pointer), 1)
    }

    func testAListHandsEachReferenceToItsOwnOwner() {
        let elements = (0..<2).map { _ in GstOwned(sinking: gst_element_factory_make("identity", nil)!) }
        var list: UnsafeMutablePointer<GList>?
        for e in elements { list = g_list_append(list, gst_object_ref(e.pointer)) }
        let owned = GstOwned<GstElement>.list(taking: list)
        XCTAssertEqual(owned.map(\.pointer), elements.map(\.pointer))
        XCTAssertEqual(elements.map { count($0.pointer) }, [2, 2])
        withExtendedLifetime(owned) {}
    }

    func testGLibStringsAreCopiedAndNilStaysNil() {
        XCTAssertNil(String(takingGLib: nil))
        XCTAssertEqual(String(takingGLib: g_strdup("fc")), "fc")
        let caps = GstOwned(gst_caps_from_string("video/x-raw, width=(int)4")!)
        XCTAssertEqual(GStreamer.describe(caps.pointer), "video/x-raw, width=(int)4")
    }
}
