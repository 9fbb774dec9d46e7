import XCTest
import FilterCore

/// The chain syntax, its error messages, the intensity shortcut and the registry.
final class FilterChainTests: XCTestCase {
    func parseError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let chain = try FilterChain.parse(text)
            XCTFail("'\(text)' parsed as \(chain)", file: file, line: line)
            return ""
        } catch {
            return error.message
        }
    }

    func assertMentions(_ message: String, _ parts: [String], file: StaticString = #filePath, line: UInt = #line) {
        for part in parts where !message.contains(part) {
            XCTFail("error '\(message)' does not mention '\(part)'", file: file, line: line)
        }
    }

    func testGoodChains() throws {
        let chain = try FilterChain.parse("sepia intensity=0.5, vignette radius=0.7  intensity=1,mono")
        XCTAssertEqual(chain.steps.map(\.id), ["sepia", "vignette", "mono"])
        XCTAssertEqual(chain.steps[0].values.double("intensity"), 0.5)
        XCTAssertEqual(chain.steps[1].values.double("radius"), 0.7)
        XCTAssertEqual(chain.steps[1].values.double("intensity"), 1)
        XCTAssertEqual(chain.steps[2].values.double("intensity"), 1, "defaults fill the rest")
        XCTAssertEqual(chain.steps[1].explicit, ["radius", "intensity"])
        XCTAssertEqual(chain.makeFilters().count, 3)
        XCTAssertFalse(chain.isIdentity)

        let mix = try FilterChain.parse("channel-mix matrix=<0, 0.7, 0.3, 0,  0,1,0,0, 0,0,1,0>")
        XCTAssertEqual(mix.steps[0].values.doubleList("matrix"), [0, 0.7, 0.3, 0, 0, 1, 0, 0, 0, 0, 1, 0])

        let peaking = try FilterChain.parse("focus-peaking color=#00FF00 threshold=7")
        XCTAssertEqual(peaking.steps[0].values.color("color"), 0xFF00_FF00, "RRGGBB is opaque")
        XCTAssertEqual(peaking.steps[0].values.int("threshold"), 7)
        XCTAssertEqual(try FilterChain.parse("focus-peaking color=0x80112233").steps[0].values.color("color"), 0x8011_2233)

        XCTAssertEqual(try FilterChain.parse("posterize\tlevels=4").steps[0].values.int("levels"), 4, "tabs separate words")
        XCTAssertEqual(try FilterChain.parse("exposure ev=-3").steps[0].values.double("ev"), -3)
    }

    /// The matrix's form as its help gives it (gst-inspect's blurb, `filtercam filters`)
    /// parses: it showed spaces inside a row, which are refused ("takes 12 values, got 3").
    func testChannelMixMatrixAsItsHelpWritesItParses() throws {
        let parameter = try XCTUnwrap(FilterRegistry.shared.descriptor(id: "channel-mix")?.parameters.first { $0.name == "matrix" })
        let form = try XCTUnwrap(parameter.summary.split(separator: ";").first.map(String.init))
        // Each placeholder (rr, rg, …) by a number, its place in the matrix.
        var place = 0
        var numbers = ""
        var letters = form.makeIterator()
        while let c = letters.next() {
            if c.isLetter { _ = letters.next(); place += 1; numbers += "\(Double(place) / 4)" } else { numbers.append(c) }
        }
        let chain = try FilterChain.parse("channel-mix matrix=\(numbers)")
        XCTAssertEqual(chain.steps[0].values.doubleList("matrix"), (1...12).map { Double($0) / 4 })
    }

    func testNoneAndEmptyAreIdentity() throws {
        XCTAssertTrue(try FilterChain.parse("").isIdentity)
        XCTAssertTrue(try FilterChain.parse("  ").isIdentity)
        XCTAssertTrue(try FilterChain.parse("none").isIdentity)
        XCTAssertEqual(try FilterChain.parse("none").description, "none")
        XCTAssertEqual(try FilterChain.parse("none, sepia").steps.map(\.id), ["sepia"])
    }

    func testDescriptionParsesBackToTheSameValues() throws {
        for text in ["sepia intensity=0.25, blur radius=3", "channel-mix matrix=<0,0.7,0.3,0, 0,1,0,0, 0,0,1,0.5>",
                     "focus-peaking color=0x0000FF00 threshold=12", "white-balance temperature=3000 tint=-12.5"] {
            let chain = try FilterChain.parse(text)
            let again = try FilterChain.parse(chain.description)
            XCTAssertEqual(again.steps.map(\.values), chain.steps.map(\.values), "\(text) → \(chain.description)")
        }
    }

    /// `Double("0.5\0junk")` is 0.5 (it reads a C string); a parameter must not be
    /// (found by the fuzzer).
    func testANumberWithANulInItIsRefused() {
        XCTAssertThrowsError(try FilterChain.parse("sepia intensity=0.5\u{0}9")) { error in
            XCTAssertTrue("\(error)".contains("cannot take '0.5\\u{0}9'"), "\(error)")
        }
        XCTAssertThrowsError(try LensRect(parsing: "0,0,0.5\u{0}1,1"))
        XCTAssertNil(NumberText.double("1\u{0}"))
        XCTAssertEqual(NumberText.double("-2.5e1"), -25)
    }

    /// A refused value's message says what the parameter takes in words: "an int", and a
    /// colour in every form the chain reads.
    func testARefusedValueSaysWhatItTakes() {
        XCTAssertThrowsError(try FilterChain.parse("posterize levels=abc")) { error in
            XCTAssertTrue("\(error)".contains("it takes an int 2…"), "\(error)")
        }
        XCTAssertThrowsError(try FilterChain.parse("focus-peaking color=red")) { error in
            XCTAssertTrue("\(error)".contains("it takes a colour (0xAARRGGBB, 0xRRGGBB or #RRGGBB), default 0xFFFF0000"), "\(error)")
        }
        for accepted in ["focus-peaking color=0xFF00FF00", "focus-peaking color=0x00FF00", "focus-peaking color=#00FF00"] {
            XCTAssertNoThrow(try FilterChain.parse(accepted), accepted)
        }
    }

    func testMessagesShowControlCharactersAndShortenLongText() {
        XCTAssertEqual("a\tb\n\u{1}\u{7F}é".quotedForMessage, "'a\\tb\\n\\u{1}\\u{7f}é'")
        XCTAssertEqual(String(repeating: "x", count: 200).quotedForMessage, "'" + String(repeating: "x", count: 120) + "…'")
        XCTAssertThrowsError(try FilterChain.parse("\u{0}sepia")) { error in
            XCTAssertTrue("\(error)".hasPrefix("'\\u{0}sepia' is not a filter id") || "\(error)".contains("unknown filter '\\u{0}sepia'"), "\(error)")
        }
    }

    func testUnknownFilterListsValidFilters() {
        let message = parseError("sepia, sepiaa intensity=1")
        assertMentions(message, ["'sepiaa'", "sepia", "focus-peaking", "channel-mix"])
    }

    /// Under stock gst-launch-1.0 no looks are loaded: `look:NAME` said only "unknown
    /// filter" (the README's examples use it); a look's name in capitals had no hint.
    func testALookNotLoadedSaysWhereLooksComeFrom() throws {
        let bare = FilterRegistry(registeringBuiltIns: true)
        XCTAssertThrowsError(try FilterChain.parse("look:teal-orange", registry: bare)) { error in
            XCTAssertTrue("\(error)".contains("looks=DIR") && "\(error)".contains("FILTERCAM_LOOKS=DIR"), "\(error)")
        }
        let loaded = FilterRegistry(registeringBuiltIns: true)
        XCTAssertEqual(try LookFolder.add("looks", to: loaded).problems, [])
        XCTAssertThrowsError(try FilterChain.parse("look:TEAL-ORANGE", registry: loaded)) { error in
            XCTAssertTrue("\(error)".contains("(did you mean \"look:teal-orange\"?)"), "\(error)")
        }
    }

    func testUnknownParameterNamesFilterAndListsParameters() {
        assertMentions(parseError("vignette strength=1"), ["'strength'", "vignette", "radius", "intensity"])
        assertMentions(parseError("edges amount=1"), ["'amount'", "edges", "(none)"])
        assertMentions(parseError("sepia intensty=0.5"), ["'intensty'", "(did you mean \"intensity\"?)"])
        XCTAssertFalse(parseError("vignette strength=1").contains("did you mean"), "no guess when nothing is close")
    }

    func testBadValuesNameFilterParameterAndRange() {
        assertMentions(parseError("sepia intensity=1.5"), ["sepia", "intensity", "0…1"])
        assertMentions(parseError("sepia intensity=abc"), ["sepia", "intensity", "abc", "double 0…1"])
        assertMentions(parseError("posterize levels=2.5"), ["posterize", "levels", "int 2…64"])
        assertMentions(parseError("posterize levels=1"), ["posterize", "levels", "2…64"])
        assertMentions(parseError("blur radius=33"), ["blur", "radius", "0…32"])
        assertMentions(parseError("exposure ev=nan"), ["exposure", "ev", "-10…10"])
        assertMentions(parseError("channel-mix matrix=<1,0,0>"), ["channel-mix", "matrix", "12", "got 3"])
        assertMentions(parseError("channel-mix matrix=<5,0,0,0, 0,1,0,0, 0,0,1,0>"), ["channel-mix", "matrix", "-4…4"])
        assertMentions(parseError("channel-mix matrix=1,0,0"), ["matrix"])
        assertMentions(parseError("focus-peaking color=red"), ["focus-peaking", "color", "0xAARRGGBB"])
        assertMentions(parseError("focus-peaking color=#F00"), ["focus-peaking", "color"])
        assertMentions(parseError("white-balance temperature=1000"), ["white-balance", "temperature", "2000…25000"])
    }

    func testMalformedChains() {
        assertMentions(parseError("intensity=0.5"), ["'intensity=0.5'", "valid filters", "sepia"])
        assertMentions(parseError("sepia, , mono"), ["empty filter"])
        assertMentions(parseError("sepia 0.5"), ["'0.5'", "sepia", "intensity"])
        assertMentions(parseError("channel-mix matrix=<1,0,0"), ["unbalanced '<'"])
        assertMentions(parseError("channel-mix matrix=1>"), ["unbalanced '>'"])
    }

    func testStrengthShortcutSetsFirstFilterUnlessExplicit() throws {
        let plain = try FilterChain.parse("sepia, mono").withStrength(0.3)
        XCTAssertEqual(plain.steps[0].values.double("intensity"), 0.3)
        XCTAssertEqual(plain.steps[1].values.double("intensity"), 1, "only the first filter")

        let explicit = try FilterChain.parse("sepia intensity=0.9").withStrength(0.3)
        XCTAssertEqual(explicit.steps[0].values.double("intensity"), 0.9, "the chain's own value wins")

        XCTAssertEqual(try FilterChain.parse("sepia").withStrength(7).steps[0].values.double("intensity"), 1,
                       "clamped to the range")
        XCTAssertEqual(try FilterChain.parse("sharpen").withStrength(2).steps[0].values.double("amount"), 2)
        XCTAssertEqual(try FilterChain.parse("vignette radius=0.5").withStrength(0.1).steps[0].values.double("intensity"), 0.1)

        let noStrength = try FilterChain.parse("posterize, sepia")
        XCTAssertEqual(noStrength.withStrength(0.2), noStrength, "posterize has no strength parameter")
        XCTAssertEqual(FilterChain.none.withStrength(0.2), FilterChain.none)

        // And it changes pixels accordingly.
        let input = Picture.colourSample
        let viaShortcut = applyFilters(try FilterChain.parse("sepia").withStrength(0.3).makeFilters(), on: input)
        XCTAssertEqual(viaShortcut, try apply("sepia intensity=0.3", to: input))
    }

    func testSyntaxHelpExamplesParse() throws {
        XCTAssertFalse(FilterChain.syntaxHelp.isEmpty)
        // The look examples name the shipped looks, from the repository's folder (in a
        // registry of this test's own: other tests walk the shared catalog).
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(repositoryRoot))
        let registry = FilterRegistry(registeringBuiltIns: true)
        XCTAssertEqual(try LookFolder.add("looks", to: registry).problems, [])
        var examples = 0
        for line in FilterChain.syntaxHelp.split(separator: "\n") where line.hasPrefix("  ") && !line.contains("ID [") {
            // An example line: the chain, then optionally three or more spaces and a comment.
            let text = line.trimmingCharacters(in: .whitespaces)
            let chain = text.components(separatedBy: "   ").first!.trimmingCharacters(in: .whitespaces)
            XCTAssertNoThrow(try FilterChain.parse(chain, registry: registry), "syntaxHelp example '\(chain)'")
            examples += 1
        }
        XCTAssertGreaterThanOrEqual(examples, 5)
    }
}

final class FilterRegistryTests: XCTestCase {
    func testCatalogOrderAndDescriptors() {
        XCTAssertEqual(FilterRegistry(registeringBuiltIns: true).ids,
                       ["none", "sepia", "mono", "noir", "invert", "posterize", "vignette", "exposure", "color-controls",
                        "white-balance", "channel-mix", "sharpen", "blur", "edges", "focus-peaking", "lut"])
        for d in FilterRegistry.shared.all {
            XCTAssertFalse(d.title.isEmpty, d.id)
            XCTAssertFalse(d.summary.isEmpty || d.summary.contains("\n"), d.id)
            for p in d.parameters {
                XCTAssertNoThrow(try p.validate(p.defaultValue), "\(d.id).\(p.name) default is in range")
                XCTAssertFalse(p.summary.isEmpty, "\(d.id).\(p.name)")
            }
            if let s = d.strengthParameter {
                guard case .double? = d.parameter(named: s)?.kind else {
                    return XCTFail("\(d.id): strength parameter '\(s)' must be a double parameter")
                }
            }
            _ = d.make(d.defaultValues)
        }
        XCTAssertEqual(FilterRegistry.shared.descriptor(id: "sepia")?.strengthParameter, "intensity")
    }

    func testLookupErrors() {
        XCTAssertNil(FilterRegistry.shared.descriptor(id: "Sepia"), "ids are case-sensitive")
        do {
            _ = try FilterRegistry.shared.lookup(id: "glow")
            XCTFail("glow is not a filter")
        } catch {
            XCTAssertTrue(error.message.contains("'glow'"), error.message)
            for id in FilterRegistry.shared.ids {
                XCTAssertTrue(error.message.contains(id), "\(error.message) lists \(id)")
            }
        }
    }

    func testRegisterAddsAndReplaces() throws {
        let registry = FilterRegistry(registeringBuiltIns: false)
        XCTAssertEqual(registry.ids, [])
        final class Blackout: FrameFilter {
            func apply(to frame: FrameView) {
                for y in 0..<frame.height { for x in 0..<frame.width { frame.setPixel(x: x, y: y, RGBA(r: 0, g: 0, b: 0)) } }
            }
        }
        registry.register(FilterDescriptor(id: "blackout", title: "Blackout", summary: "All black", make: { _ in Blackout() }))
        registry.register(FilterDescriptor(id: "other", title: "Other", summary: "x", make: { _ in Blackout() }))
        registry.register(FilterDescriptor(id: "blackout", title: "Blackout 2", summary: "All black", make: { _ in Blackout() }))
        XCTAssertEqual(registry.ids, ["blackout", "other"])
        XCTAssertEqual(registry.descriptor(id: "blackout")?.title, "Blackout 2")
        let chain = try FilterChain.parse("blackout", registry: registry)
        let out = applyFilters(chain.makeFilters(registry: registry), on: Picture.filled(width: 2, height: 2, RGBA(r: 9, g: 9, b: 9)))
        XCTAssertEqual(out.pixels, Array(repeating: RGBA(r: 0, g: 0, b: 0, a: 255), count: 4))
        XCTAssertThrowsError(try FilterChain.parse("sepia", registry: registry))
    }
}
