import XCTest
@testable import FilterCore

/// An element's properties as a dictionary, with the setter's checks a real one makes.
final class FakeTarget: ControlTarget {
    var properties: [String: String]
    var stills = 0
    var keptLens: String?
    let name = "fc"

    init(_ properties: [String: String] = [:]) {
        self.properties = ["filter": "none", "orientation": "identity", "camera-facing": "back", "zoom": "1",
                           "max-zoom": "4", "lens": "0,0,1,1", "detect-faces": "false"].merging(properties) { $1 }
    }

    func value(_ property: String) -> String? { properties[property] }

    func set(_ property: String, _ value: String) throws {
        guard properties[property] != nil else { throw ControlError("no property \(property)") }
        if property == "lens" { _ = try LensRect(parsing: value) }
        properties[property] = value
    }

    func snapshot() throws { stills += 1 }
}

/// `ControlCommand.run(on:)`: what each command sets, from a given state (values by hand).
final class ControlExecutorTests: XCTestCase {
    let registry = FilterRegistry(registeringBuiltIns: true)

    /// The feedback and the target after running `command` from `properties`.
    func run(_ command: ControlCommand, _ properties: [String: String] = [:], kept: String? = nil) throws -> (String?, FakeTarget) {
        let target = FakeTarget(properties)
        target.keptLens = kept
        let text = try command.run(on: target, registry: registry)
        return (text, target)
    }

    func testFilters() throws {
        XCTAssertEqual(try run(.nextFilter).0, "filter: sepia")
        XCTAssertEqual(try run(.nextFilter, ["filter": "sepia intensity=0.5, vignette"]).0, "filter: mono")
        XCTAssertEqual(try run(.previousFilter, ["filter": "sepia"]).0, "filter: none")
        XCTAssertEqual(try run(.previousFilter).0, "filter: focus-peaking", "wraps to the end of the catalog")
        // exposure at 0 EV changes nothing: n brings it at the gallery's example, and walks on from it.
        XCTAssertEqual(try run(.nextFilter, ["filter": "vignette"]).0, "filter: exposure ev=1")
        XCTAssertEqual(try run(.nextFilter, ["filter": "exposure ev=1"]).0, "filter: color-controls saturation=2 contrast=1.3")
        XCTAssertEqual(try run(.previousFilter, ["filter": "exposure ev=1"]).0, "filter: vignette")
        XCTAssertEqual(try run(.filter("mono")).0, "filter: mono")
        XCTAssertEqual(try run(.filter("mono"), ["filter": "mono"]).0, "filter: none", "again returns to none")
        XCTAssertThrowsError(try run(.filter("sepai")))
    }

    /// `filter` with parameters or a chain sets it as the property takes it (no toggling);
    /// a wrong parameter is named, not taken for an unknown filter id.
    func testAFilterWithParametersOrAChainIsSetAsWritten() throws {
        XCTAssertEqual(try run(.filter("sepia intensity=0.5, vignette")).0, "filter: sepia intensity=0.5, vignette")
        XCTAssertEqual(try run(.filter("sepia intensity=0.5"), ["filter": "sepia intensity=0.5"]).0, "filter: sepia intensity=0.5")
        XCTAssertThrowsError(try run(.filter("sepia intensity=9"))) { error in
            XCTAssertTrue("\(error)".contains("intensity"), "\(error)")
            XCTAssertFalse("\(error)".contains("unknown filter"), "\(error)")
        }
    }

    /// `filter ID NAME` and `lens-at X,Y NAME` are aimed at element NAME, as `snapshot NAME`
    /// is (`filter invert b` was an unknown filter, `lens-at 0.5,0.5 b` "needs X,Y"); a
    /// chain's own words stay the chain's.
    func testFilterAndLensAtAimedAtAnElement() throws {
        XCTAssertEqual(try ControlCommand(line: "filter invert b"), .on(element: "b", .filter("invert")))
        XCTAssertEqual(try ControlCommand(line: "filter \"sepia, vignette\" b"), .on(element: "b", .filter("sepia, vignette")))
        XCTAssertEqual(try ControlCommand(line: "filter lut file=x.cube"), .filter("lut file=x.cube"))
        XCTAssertEqual(try ControlCommand(line: "filter sepia, vignette"), .filter("sepia, vignette"))
        XCTAssertEqual(try ControlCommand(line: "lens-at 0.5,0.25 b"), .on(element: "b", .lensAt(x: 0.5, y: 0.25)))
        XCTAssertEqual(try ControlCommand(line: "pick-at 0.5,0.25 b"), .on(element: "b", .pickAt(x: 0.5, y: 0.25)))
        XCTAssertThrowsError(try ControlCommand(line: "lens-at 2,2 b"))
    }

    /// A bare `lut` (no file) shows the picture unchanged: n and p pass it, a folder's
    /// looks are the ones offered, and a `lut` set with a file steps from its place.
    func testNextAndPreviousPassABareLutAndOfferTheLooks() throws {
        XCTAssertEqual(try run(.nextFilter, ["filter": "focus-peaking"]).0, "filter: none", "past the end: the start")
        XCTAssertEqual(try run(.nextFilter, ["filter": "lut file=looks/teal-orange.cube"]).0, "filter: none")
        XCTAssertEqual(try run(.previousFilter, ["filter": "lut file=looks/teal-orange.cube"]).0, "filter: focus-peaking")
        let withLooks = FilterRegistry(registeringBuiltIns: true)
        withLooks.register(LookFilter.descriptor(id: "look:warm", title: "Warm", summary: "", file: "warm.cube"))
        let target = FakeTarget(["filter": "focus-peaking"])
        XCTAssertEqual(try ControlCommand.nextFilter.run(on: target, registry: withLooks), "filter: look:warm")
        XCTAssertEqual(try ControlCommand.previousFilter.run(on: FakeTarget(), registry: withLooks), "filter: look:warm")
        XCTAssertEqual(withLooks.pickable.map(\.id).filter { $0.contains("lut") || $0.hasPrefix("look:") }, ["look:warm"])
        XCTAssertNotNil(withLooks.descriptor(id: "lut"), "pipelines still name it")
    }

    func testCountdownWritesThreeSecondsToTheElement() throws {
        let (text, target) = try run(.countdown, ["countdown": "0"])
        XCTAssertEqual(text, "countdown: a still in 3 s")
        XCTAssertEqual(target.properties["countdown"], "3")
        XCTAssertEqual(target.stills, 0, "the element takes the still when the count ends")
        XCTAssertEqual(Keymap.command(forKey: "t"), .countdown)
        XCTAssertEqual(try ControlCommand(line: "countdown"), .countdown)
        XCTAssertThrowsError(try run(.countdown), "an element without the property (fc<id>) refuses")
        // Again while it counts: called off (it started again).
        let (again, counting) = try run(.countdown, ["countdown": "2"])
        XCTAssertEqual(again, "countdown: cancelled")
        XCTAssertEqual(counting.properties["countdown"], "0")
    }

    /// `record` (key v) toggles the element's `record`; what the recording became is the
    /// element's to say (its file, then its length and size), so the command says nothing.
    func testRecordTogglesTheElementsRecording() throws {
        let (text, target) = try run(.record, ["record": "false"])
        XCTAssertNil(text)
        XCTAssertEqual(target.properties["record"], "true")
        XCTAssertNil(try ControlCommand.record.run(on: target, registry: registry))
        XCTAssertEqual(target.properties["record"], "false", "again stops it")
        XCTAssertEqual(Keymap.command(forKey: "v"), .record)
        XCTAssertEqual(try ControlCommand(line: "record"), .record)
        XCTAssertEqual(ControlCommand(key: "v"), .record)
        XCTAssertThrowsError(try run(.record), "an element without the property (fc<id>, filtercamsrc) refuses") { error in
            XCTAssertEqual("\(error)", "fc cannot record")
        }
    }

    /// `set name=…` is refused with why: GStreamer keeps a name in a pipeline without a word,
    /// so "set filtercam0.name = filtercam0" read as if it had worked.
    func testANameIsNotSetWhilePlaying() throws {
        for line in ["set name=foo", "set filtercam0.name=foo"] {
            XCTAssertThrowsError(try ControlCommand(line: line), line) { error in
                XCTAssertTrue("\(error)".contains("an element's name cannot change once it is in a pipeline; give it in the description (filtercam name=foo …)"), "\(error)")
            }
        }
        XCTAssertEqual(try ControlCommand(line: "set filtercam0.zoom=2"), .set(element: "filtercam0", property: "zoom", value: "2"))
    }

    /// The keys say what happened in a camera user's words, the GStreamer nick in brackets.
    func testRotateAndMirror() throws {
        XCTAssertEqual(try run(.rotate).0, "rotate: 90° clockwise (orientation 90r)")
        XCTAssertEqual(try run(.rotate, ["orientation": "90r"]).0, "rotate: 180° (orientation 180)")
        XCTAssertEqual(try run(.rotate, ["orientation": "180"]).0, "rotate: 90° counter-clockwise (orientation 90l)")
        XCTAssertEqual(try run(.rotate, ["orientation": "90l"]).0, "rotate: none (orientation identity)")
        XCTAssertEqual(try run(.rotate, ["orientation": "auto"]).0, "rotate: 90° clockwise (orientation 90r)", "auto starts from identity")
        XCTAssertEqual(try run(.mirror).0, "mirror: on (orientation horiz)")
        XCTAssertEqual(try run(.mirror, ["orientation": "horiz"]).0, "mirror: off (orientation identity)")
        XCTAssertEqual(try run(.mirror, ["orientation": "180"]).0, "mirror: on, after a 180° turn (orientation vert)")
        XCTAssertEqual(try run(.mirror, ["orientation": "90r"]).0, "mirror: on, after a 90° clockwise turn (orientation ul-lr)",
                       "the top-left corner stays")
        XCTAssertEqual(try run(.mirror, ["orientation": "ul-lr"]).0, "mirror: off, turned 90° clockwise (orientation 90r)")
        // Mirrored, then turned: a turn of the mirrored picture (horiz, then a quarter turn clockwise).
        XCTAssertEqual(try run(.rotate, ["orientation": "horiz"]).0, "rotate: 90° clockwise, of the mirrored picture (orientation ur-ll)")
        XCTAssertEqual(try run(.rotate, ["orientation": "ul-lr"]).0, "rotate: none, mirrored (orientation horiz)")
        let (text, target) = try run(.mirror, ["orientation": "auto"])
        XCTAssertEqual(text, "mirror: on (camera-facing front)")
        XCTAssertEqual(target.properties["orientation"], "auto")
        XCTAssertEqual(target.properties["camera-facing"], "front")
        XCTAssertEqual(try run(.mirror, ["orientation": "auto", "camera-facing": "front"]).0, "mirror: off (camera-facing back)")
    }

    func testZoomStepsWithinOneAndMaxZoom() throws {
        XCTAssertEqual(try run(.zoomIn).0, "zoom: 1.25")
        XCTAssertEqual(try run(.zoomIn, ["zoom": "2"]).0, "zoom: 2.5")
        XCTAssertEqual(try run(.zoomIn, ["zoom": "3.5"]).0, "zoom: 4")
        XCTAssertEqual(try run(.zoomOut, ["zoom": "2.5"]).0, "zoom: 2")
        // At an end a step changes nothing, and says so.
        XCTAssertEqual(try run(.zoomOut).0, "zoom: 1 (the least)")
        XCTAssertEqual(try run(.zoomIn, ["zoom": "4"]).0, "zoom: 4 (the most: max-zoom)")
        XCTAssertEqual(try run(.zoomOut, ["zoom": "1.1"]).0, "zoom: 1")
        // Steps land on hundredths, as the window's echo and a slider show them.
        XCTAssertEqual(try run(.zoomIn, ["zoom": "3.05"]).0, "zoom: 3.81")
        XCTAssertEqual(try run(.zoomOut, ["zoom": "1.56"]).0, "zoom: 1.25")
    }

    func testLensOffAndBackWhereItWas() throws {
        let (on, target) = try run(.lens)
        XCTAssertEqual(on, "lens: 0.25,0.25,0.5,0.5", "no lens yet: the default, half size, centred")
        target.properties["lens"] = "0.1,0.2,0.3,0.4"
        XCTAssertEqual(try ControlCommand.lens.run(on: target, registry: registry), "lens: off")
        XCTAssertEqual(target.properties["lens"], "0,0,1,1")
        XCTAssertEqual(target.keptLens, "0.1,0.2,0.3,0.4")
        XCTAssertEqual(try ControlCommand.lens.run(on: target, registry: registry), "lens: 0.1,0.2,0.3,0.4")
        XCTAssertNil(target.keptLens)
    }

    func testLensAtPlacesAndMovesTheLensInsideThePicture() throws {
        XCTAssertEqual(try run(.lensAt(x: 0.5, y: 0.5)).0, "lens: 0.25,0.25,0.5,0.5")
        XCTAssertEqual(try run(.lensAt(x: 0.9, y: 0.1)).0, "lens: 0.5,0,0.5,0.5", "kept inside")
        XCTAssertEqual(try run(.lensAt(x: 0.3, y: 0.6), ["lens": "0,0,0.2,0.4"]).0, "lens: 0.2,0.4,0.2,0.4")
        // A click's fractions give a corner to 4 decimals (it read 0.475001, 0.152469).
        XCTAssertEqual(try run(.lensAt(x: 0.40000049, y: 0.5), ["lens": "0,0,0.05,0.05"]).0, "lens: 0.375,0.475,0.05,0.05")
        XCTAssertEqual(try run(.lensAt(x: 0.402469, y: 0.5)).0, "lens: 0.1525,0.25,0.5,0.5")
    }

    func testArrowsAndSizeNeedALens() throws {
        let lens = ["lens": "0.25,0.25,0.5,0.5"]
        XCTAssertEqual(try run(.moveLens(.right), lens).0, "lens: 0.3,0.25,0.5,0.5")
        XCTAssertEqual(try run(.moveLens(.left), lens).0, "lens: 0.2,0.25,0.5,0.5")
        XCTAssertEqual(try run(.moveLens(.up), lens).0, "lens: 0.25,0.2,0.5,0.5")
        XCTAssertEqual(try run(.moveLens(.down), lens).0, "lens: 0.25,0.3,0.5,0.5")
        XCTAssertEqual(try run(.moveLens(.left), ["lens": "0,0,0.5,0.5"]).0, "lens: 0,0,0.5,0.5", "at the edge it stays")
        XCTAssertEqual(try run(.lensSmaller, lens).0, "lens: 0.3,0.3,0.4,0.4")
        XCTAssertEqual(try run(.lensLarger, lens).0, "lens: 0.1875,0.1875,0.625,0.625")
        // At most 95 % of each side: grown to the whole picture it was off, and `[` refused.
        XCTAssertEqual(try run(.lensLarger, ["lens": "0,0,0.9,0.9"]).0, "lens: 0,0,0.95,0.95")
        XCTAssertEqual(try run(.lensLarger, ["lens": "0.025,0.025,0.95,0.95"]).0, "lens: 0.025,0.025,0.95,0.95", "as large as it gets")
        XCTAssertEqual(try run(.lensSmaller, ["lens": "0.025,0.025,0.95,0.95"]).0, "lens: 0.12,0.12,0.76,0.76")
        // Ten `[` from half size, each side × 0.8 and rounded to 4 decimals (by hand: 0.4, 0.32,
        // 0.256, 0.2048, 0.1638, 0.131, 0.1048, 0.0838, 0.067, 0.0536), not 0.0536870912.
        var shrinking = ["lens": "0.25,0.25,0.5,0.5"]
        for _ in 0..<10 { shrinking["lens"] = String(try run(.lensSmaller, shrinking).0!.dropFirst("lens: ".count)) }
        XCTAssertEqual(shrinking["lens"], "0.4732,0.4732,0.0536,0.0536")
        for command in [ControlCommand.moveLens(.up), .lensSmaller, .lensLarger] {
            XCTAssertThrowsError(try run(command)) { XCTAssertTrue("\($0)".contains("the lens is off"), "\($0)") }
        }
    }

    func testFacesSnapshotSetAndProgramCommands() throws {
        XCTAssertEqual(try run(.faces).0, "faces: on")
        XCTAssertEqual(try run(.faces, ["detect-faces": "true"]).1.properties["detect-faces"], "false")
        let (still, target) = try run(.snapshot)
        XCTAssertNil(still)
        XCTAssertEqual(target.stills, 1)
        XCTAssertEqual(try run(.set(element: nil, property: "zoom", value: "2")).0, "set fc.zoom = 2")
        XCTAssertThrowsError(try run(.set(element: nil, property: "bogus", value: "2")))
        XCTAssertThrowsError(try run(.camera("front")), "a filtercam has no camera")
        XCTAssertEqual(try run(.camera("front"), ["camera": "back"]).0, "camera: front")
        // A test picture standing in for the camera asked for is said on the same line
        // (the answer was "camera: front" over a test picture).
        XCTAssertEqual(try run(.camera("front"), ["camera": "back", "showing": "front"]).0, "camera: front")
        XCTAssertEqual(try run(.camera("front"), ["camera": "back", "showing": "test picture (no camera found)"]).0,
                       "camera: front: not shown, no camera found; a test picture stands in")
        for command in [ControlCommand.help, .quit] {
            let (text, target) = try run(command)
            XCTAssertNil(text)
            XCTAssertEqual(target.properties, FakeTarget().properties, "\(command) changes nothing on the element")
        }
    }
}

/// The gallery's commands on an element: `gallery` is a property, the selection is the
/// filter (catalog order: none, sepia, mono, noir, invert, posterize, vignette, exposure,
/// color-controls | white-balance, channel-mix, sharpen, blur, edges, focus-peaking).
final class GalleryCommandTests: XCTestCase {
    let registry = FilterRegistry(registeringBuiltIns: true)

    func run(_ command: ControlCommand, _ properties: [String: String]) throws -> (String?, FakeTarget) {
        let target = FakeTarget(["gallery": "false"].merging(properties) { $1 })
        return (try command.run(on: target, registry: registry), target)
    }

    func testGOpensAndClosesEscOnlyCloses() throws {
        let (opened, target) = try run(.gallery, [:])
        XCTAssertEqual(opened, "gallery: open (arrows or a click choose, PgUp/PgDn turn pages, g or Esc closes)")
        XCTAssertEqual(target.properties["gallery"], "true")
        XCTAssertEqual(try run(.gallery, ["gallery": "true"]).0, "gallery: closed")
        XCTAssertEqual(try run(.closeGallery, ["gallery": "true"]).1.properties["gallery"], "false")
        let (nothing, closed) = try run(.closeGallery, [:])
        XCTAssertNil(nothing, "Enter with the gallery closed says nothing")
        XCTAssertEqual(closed.properties["gallery"], "false")
        // Esc: the gallery first, else a countdown called off (it counted on), else nothing.
        let (gallery, counting) = try run(.cancel, ["gallery": "true", "countdown": "2"])
        XCTAssertEqual(gallery, "gallery: closed")
        XCTAssertEqual(counting.properties["countdown"], "2", "the gallery closed, the countdown on")
        let (cancelled, stopped) = try run(.cancel, ["gallery": "false", "countdown": "2"])
        XCTAssertEqual(cancelled, "countdown: cancelled")
        XCTAssertEqual(stopped.properties["countdown"], "0")
        XCTAssertNil(try run(.cancel, ["gallery": "false", "countdown": "0"]).0, "nothing to cancel: nothing said")
        XCTAssertNil(try run(.cancel, [:]).0, "an element without either (fc<id>)")
        XCTAssertEqual(Keymap.command(forKey: "Escape"), .cancel)
        XCTAssertEqual(try ControlCommand(line: "cancel"), .cancel)
        XCTAssertThrowsError(try ControlCommand.gallery.run(on: FakeTarget(), registry: registry), "no gallery property (fc<id>)")
    }

    func testArrowsAndPagesChooseTheFilterAsShown() throws {
        let open = ["gallery": "true"]
        XCTAssertEqual(try run(.moveLens(.right), open).0, "filter: sepia")
        let (text, target) = try run(.moveLens(.right), open.merging(["filter": "mono", "lens": "0.25,0.25,0.5,0.5"]) { $1 })
        XCTAssertEqual(text, "filter: white-balance temperature=3500", "past the edge: the next page, in its shown setting")
        XCTAssertEqual(target.properties["lens"], "0.25,0.25,0.5,0.5", "the lens stays")
        XCTAssertEqual(try run(.moveLens(.down), open.merging(["filter": "sepia intensity=0.5, vignette"]) { $1 }).0,
                       "filter: invert", "from a chain's first filter")
        XCTAssertEqual(try run(.turnPage(1), open.merging(["filter": "invert"]) { $1 }).0, "filter: edges")
        XCTAssertEqual(try run(.turnPage(-1), open.merging(["filter": "edges"]) { $1 }).0, "filter: invert")
        // The last thumbnail is the catalog's last pickable filter: no bare `lut` cell.
        XCTAssertEqual(try run(.moveLens(.right), open.merging(["filter": "edges"]) { $1 }).0, "filter: focus-peaking")
        XCTAssertNotEqual(try run(.moveLens(.right), open.merging(["filter": "focus-peaking"]) { $1 }).0, "filter: lut")
        // Closed: the arrows move the lens, a page key is refused.
        XCTAssertEqual(try run(.moveLens(.left), ["lens": "0.25,0.25,0.5,0.5"]).0, "lens: 0.2,0.25,0.5,0.5")
        XCTAssertThrowsError(try run(.turnPage(1), [:])) { XCTAssertTrue("\($0)".contains("'g' opens it"), "\($0)") }
    }

    /// `lut file=…` naming a folder look's file is that look's thumbnail (outlined, where
    /// the arrows step from); a `lut` of another file has none: nothing outlined.
    func testALutOfAFolderLooksFileIsThatLooksThumbnail() throws {
        let files = LookFiles()
        let warm = files.write("warm.cube", LookFiles.identityCube(size: 2))
        let other = files.write("other.cube", LookFiles.identityCube(size: 2))
        let looks = FilterRegistry(registeringBuiltIns: true)
        looks.register(LookFilter.descriptor(id: "look:warm", title: "Warm", summary: "", file: warm))
        XCTAssertEqual(looks.pickableID(ofChain: "lut file=\(warm) intensity=0.5"), "look:warm")
        XCTAssertEqual(looks.pickableID(ofChain: "lut file=\(files.folder)/./warm.cube"), "look:warm", "the same file written otherwise")
        XCTAssertNil(looks.pickableID(ofChain: "lut file=\(other)"))
        XCTAssertEqual(looks.pickableID(ofChain: "sepia, vignette"), "sepia")
        XCTAssertEqual(looks.pickableID(ofChain: "none"), "none")
        func left(from filter: String) throws -> String? {
            try ControlCommand.moveLens(.left).run(on: FakeTarget(["gallery": "true", "filter": filter]), registry: looks)
        }
        XCTAssertEqual(try left(from: "lut file=\(warm)"), try left(from: "look:warm"))
        XCTAssertNotEqual(try left(from: "lut file=\(warm)"), try left(from: "none"))
        func outlined(_ selected: Int?) -> Int {
            GalleryPage(count: looks.pickable.count, selected: selected, width: 320, height: 240, pictureWidth: 320, pictureHeight: 240)
                .items { _ in "" }.filter { if case .outline = $0 { true } else { false } }.count
        }
        XCTAssertEqual(outlined(0), 1)
        XCTAssertEqual(outlined(nil), 0)
    }

    /// A click (fractions of the frame; cells as in `GalleryLayoutTests`) chooses and closes.
    func testAClickChoosesTheThumbnailUnderItAndCloses() throws {
        let (text, target) = try run(.pickAt(x: 0.5, y: 0.5), ["gallery": "true", "filter": "sepia"])
        XCTAssertEqual(text, "filter: invert (gallery closed)")
        XCTAssertEqual(target.properties["gallery"], "false")
        XCTAssertEqual(try run(.pickAt(x: 0.9, y: 0.1), ["gallery": "true", "filter": "edges"]).0,
                       "filter: sharpen amount=2 (gallery closed)", "on the page shown")
        XCTAssertThrowsError(try run(.pickAt(x: 0.335, y: 0.5), ["gallery": "true"]), "between cells")
        // The click's place is said rounded (it came out as 0.7291666666666666).
        XCTAssertThrowsError(try run(.pickAt(x: 0.335, y: 0.7291666666666666), ["gallery": "true"])) { error in
            XCTAssertEqual("\(error)", "no thumbnail at 0.34,0.73 of the gallery: nothing picked")
        }
        XCTAssertThrowsError(try run(.pickAt(x: 0.5, y: 0.5), [:]), "closed")
    }
}

/// On YUV frames the gallery's arrows and page turns never choose a filter that works on
/// RGB only (it is refused there: PgDn stayed on its page when the kept cell was one),
/// and n/p pass over it; on RGB frames it is chosen as any other.
final class RGBOnlyFiltersOnYUVTests: XCTestCase {
    private final class RGBOnly: FrameFilter {
        func apply(to frame: FrameView) {}
    }

    private final class YUVTarget: ControlTarget {
        var properties: [String: String]
        var keptLens: String?
        let name = "fc"
        let yuv: Bool
        init(filter: String, yuv: Bool) {
            properties = ["filter": filter, "gallery": "true"]
            self.yuv = yuv
        }
        func value(_ property: String) -> String? { properties[property] }
        func set(_ property: String, _ value: String) throws { properties[property] = value }
        func snapshot() throws {}
        var takesRGBOnlyFilters: Bool { !yuv }
    }

    func testTheGalleryAndTheFilterCycleGoPastThemOnYUV() throws {
        let registry = FilterRegistry(registeringBuiltIns: true)
        registry.register(FilterDescriptor(id: "rgb-only", title: "RGB only", summary: "a test filter", make: { _ in RGBOnly() }))
        let ids = registry.pickable.map(\.id)
        let commands: [ControlCommand] = [.turnPage(1), .turnPage(-1), .moveLens(.left), .moveLens(.right), .moveLens(.up),
                                          .moveLens(.down), .nextFilter, .previousFilter]
        var reachedOnRGB = false
        for id in ids where id != "rgb-only" {
            for command in commands {
                let yuv = YUVTarget(filter: FilterShowcase.chain(for: id), yuv: true)
                _ = try command.run(on: yuv, registry: registry)
                XCTAssertFalse(yuv.properties["filter"]!.hasPrefix("rgb-only"), "\(command) from \(id)")
                let rgb = YUVTarget(filter: FilterShowcase.chain(for: id), yuv: false)
                _ = try command.run(on: rgb, registry: registry)
                reachedOnRGB = reachedOnRGB || rgb.properties["filter"]!.hasPrefix("rgb-only")
            }
        }
        XCTAssertTrue(reachedOnRGB)
    }
}
