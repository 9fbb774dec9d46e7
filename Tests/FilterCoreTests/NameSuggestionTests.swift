import XCTest
@testable import FilterCore

/// "Did you mean": edit distances counted by hand, and when a guess is close enough.
final class NameSuggestionTests: XCTestCase {
    func testDistancesCountedByHand() {
        XCTAssertEqual(NameSuggestion.distance("sepai", "sepia"), 2)     // two substitutions
        XCTAssertEqual(NameSuggestion.distance("previw", "preview"), 1)  // one insertion
        XCTAssertEqual(NameSuggestion.distance("", "abc"), 3)
        XCTAssertEqual(NameSuggestion.distance("kitten", "sitting"), 3)
        XCTAssertEqual(NameSuggestion.distance("mono", "mono"), 0)
    }

    func testOnlyCloseNamesAreSuggested() {
        let ids = ["none", "sepia", "mono", "vignette"]
        XCTAssertEqual(NameSuggestion.closest(to: "sepai", among: ids), "sepia")
        XCTAssertEqual(NameSuggestion.closest(to: "vignete", among: ids), "vignette")
        XCTAssertNil(NameSuggestion.closest(to: "sepia", among: ids), "an exact name needs no suggestion")
        XCTAssertNil(NameSuggestion.closest(to: "zzzzzzzz", among: ids))
        XCTAssertEqual(NameSuggestion.hint(for: "mno", among: ids), " (did you mean \"mono\"?)")
        XCTAssertEqual(NameSuggestion.hint(for: "xylophone", among: ids), "")
    }

    /// A name in other letter case is that name, however many letters differ (`QUIT` was
    /// four edits from `quit`, too many for a suggestion).
    func testANameInOtherLetterCaseIsThatName() {
        XCTAssertEqual(NameSuggestion.closest(to: "QUIT", among: ["quit", "rotate"]), "quit")
        XCTAssertEqual(NameSuggestion.closest(to: "ZOOM", among: ["zoom", "lens"]), "zoom")
        XCTAssertEqual(NameSuggestion.hint(for: "Sepia", among: ["sepia"]), " (did you mean \"sepia\"?)")
    }

    /// The beginning of exactly one name, too far from it in edits, is that name.
    func testTheBeginningOfOneNameIsThatName() {
        let ids = ["look:teal-orange", "look:warm-film", "look:cool-film", "sepia"]
        XCTAssertEqual(NameSuggestion.closest(to: "look:teal", among: ids), "look:teal-orange")
        XCTAssertNil(NameSuggestion.closest(to: "look:", among: ids), "the beginning of several names is none of them")
        XCTAssertNil(NameSuggestion.closest(to: "se", among: ids), "two letters are too few to go on")
    }
}
