import FilterCamTestSupport
import Foundation
import XCTest

/// `filtercam launch` as a shell hands it what a user typed: values with spaces in words of
/// their own, a pipeline's name in a folder holding things of that name, `--messages=FILE`
/// beside the pipeline file.
final class ArgumentsAsTypedTests: XCTestCase {
    private func folder() throws -> URL {
        let dir = try makeTempDir()
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// `filtercam ARGS…` run in `dir`.
    private func runCLI(in dir: URL, _ arguments: [String], environment: [String: String?] = [:]) throws -> ProcessResult {
        try Build.requireCLI()
        return try runProcess("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", dir.path, Build.cli] + arguments,
                              environment: environment)
    }

    /// `location="my clip.raw"` typed unquoted as a word: the shell drops the quotes, and
    /// joined with plain spaces "clip.raw" was a word of its own ("unexpected reference").
    /// gst-launch-1.0 takes it; so does launch, the value whole.
    func testAValueWithSpacesTypedAsAWordOfItsOwn() throws {
        let dir = try folder()
        let clip = dir.appendingPathComponent("my clip.raw").path
        let r = try FilterCamTestSupport.runCLI(["launch", "videotestsrc", "num-buffers=1", "!", "video/x-raw,format=GRAY8,width=16,height=8",
                                                 "!", "filesink", "location=\(clip)"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int, 16 * 8)
        let chain = try FilterCamTestSupport.runCLI(["launch", "videotestsrc", "num-buffers=2", "!", "filtercam", "filter=mono, vignette",
                                                     "name=fc", "!", "fakesink"])
        XCTAssertEqual(chain.status, 0, chain.summary)
        XCTAssertTrue(chain.stderr.contains("filtercam fc: processed=2"), chain.stderr)
        // A word that is an element with its properties joins as it is.
        let element = try FilterCamTestSupport.runCLI(["launch", "videotestsrc num-buffers=2", "!", "filtercam filter=mono name=fc", "!", "fakesink"])
        XCTAssertEqual(element.status, 0, element.summary)
        XCTAssertTrue(element.stderr.contains("filtercam fc: processed=2"), element.stderr)
    }

    /// A folder (or a file) named like a shipped pipeline, in the folder the user runs it
    /// from, stopped `launch NAME` ("'snapshot' is a folder, not a pipeline file").
    func testANameFindsItsPipelineBesideAFolderOrFileOfThatName() throws {
        let dir = try folder()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("rawout"), withIntermediateDirectories: true)
        let environment: [String: String?] = ["SOURCE": "videotestsrc num-buffers=3", "WIDTH": "16", "HEIGHT": "8"]
        let r = try runCLI(in: dir, ["launch", "rawout"], environment: environment)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("processed=3"), r.stderr)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("rawout"))
        try Data("not a pipeline\n".utf8).write(to: dir.appendingPathComponent("rawout"))
        let beside = try runCLI(in: dir, ["launch", "rawout"], environment: environment)
        XCTAssertEqual(beside.status, 0, beside.summary)
        XCTAssertTrue(beside.stderr.contains("the file of that name here is './rawout'"), beside.stderr)
        // The file itself, asked for by its path.
        let file = try runCLI(in: dir, ["launch", "./rawout"])
        XCTAssertEqual(file.status, 1, file.summary)
        XCTAssertTrue(file.stderr.contains("no element \"not\""), file.stderr)
    }

    /// A `pipelines` folder of the user's own: its files were listed as the shipped ones,
    /// and the shipped ones left out of the list and of "did you mean".
    func testOwnPipelinesAreListedBesideTheShippedOnes() throws {
        let dir = try folder()
        let own = dir.appendingPathComponent("pipelines")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        try "# Mine.\nvideotestsrc num-buffers=1 ! fakesink\n".write(to: own.appendingPathComponent("mine.pipeline"), atomically: true, encoding: .utf8)
        let mistyped = try runCLI(in: dir, ["launch", "preveiw"])
        XCTAssertEqual(mistyped.status, 1, mistyped.summary)
        XCTAssertTrue(mistyped.stderr.contains("did you mean \"preview\""), mistyped.stderr)
        XCTAssertTrue(mistyped.stderr.contains("shipped pipelines: demo"), mistyped.stderr)
        XCTAssertTrue(mistyped.stderr.contains("in ./pipelines: mine"), mistyped.stderr)
        let help = try runCLI(in: dir, ["launch", "--help"])
        XCTAssertTrue(help.stdoutText.contains("\n  preview "), help.stdoutText)
        XCTAssertTrue(help.stdoutText.contains("in ./pipelines: mine"), help.stdoutText)
        let mine = try runCLI(in: dir, ["launch", "mine"])
        XCTAssertEqual(mine.status, 0, mine.summary)
        // A copied program finds no shipped files: the user's own were left out of --help
        // ("(none found)") while `launch mine` ran them.
        let bin = dir.appendingPathComponent("elsewhere/a/b/c/bin")   // no pipelines folder within 4 levels above it
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Build.cli, toPath: bin.appendingPathComponent("filtercam").path)
        let copied = try runProcess("/bin/sh", ["-c", "cd \"$0\" && exec elsewhere/a/b/c/bin/filtercam launch --help", dir.path])
        XCTAssertTrue(copied.stdoutText.contains("(none found)\n  in ./pipelines: mine"), copied.stdoutText)
    }

    /// Bytes that are not UTF-8 in an argument or a variable became U+FFFD: the file was
    /// written under another name. Refused, naming the bytes (stock multifilesink refuses
    /// such a location too).
    func testBytesThatAreNotUTF8AreRefusedNotReplaced() throws {
        let dir = try folder()
        let argument = try runProcess("/bin/sh", ["-c", "cd \"$1\" && exec \"$0\" launch \"videotestsrc num-buffers=1 ! filesink location=x$(printf '\\377').raw\"",
                                                  Build.cli, dir.path])
        XCTAssertEqual(argument.status, 2, argument.summary)
        XCTAssertTrue(argument.stderr.contains("argument 2 is not UTF-8 text (videotestsrc num-buffers=1 ! filesink location=x\\xFF.raw)"), argument.stderr)
        let variable = try runProcess("/bin/sh", ["-c", "cd \"$1\" && SNAPDIR=\"bad$(printf '\\377')\" SINK=fakesink exec \"$0\" launch snapshot",
                                                  Build.cli, dir.path])
        XCTAssertEqual(variable.status, 1, variable.summary)
        XCTAssertTrue(variable.stderr.contains("SNAPDIR=bad\\xFF is not UTF-8 text"), variable.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    /// `--runs=1` as `--runs 1`, `--` ending the options of every command, an option after
    /// the description named: only `--messages=` took `=`, `inspect --` took `--` for an
    /// element, and GStreamer said only "syntax error".
    func testOptionsAreTakenAsGetoptTakesThem() throws {
        let runs = try FilterCamTestSupport.runCLI(["bench", "--runs=x"])
        XCTAssertEqual(runs.status, 2, runs.summary)
        XCTAssertTrue(runs.stderr.contains("--runs takes a whole number of runs from 1 up, not 'x'"), runs.stderr)
        let inspect = try FilterCamTestSupport.runCLI(["inspect", "--", "filtercam"])
        XCTAssertEqual(inspect.status, 0, inspect.summary)
        XCTAssertTrue(inspect.stdoutText.contains("snapshot-location"), inspect.stdoutText)
        let filters = try FilterCamTestSupport.runCLI(["filters", "--looks=" + Build.packageRoot + "/looks", "--", "sepia"])
        XCTAssertEqual(filters.status, 0, filters.summary)
        XCTAssertTrue(filters.stdoutText.hasPrefix("sepia — Sepia Tone"), filters.stdoutText)
        let version = try FilterCamTestSupport.runCLI(["version", "--"])
        XCTAssertEqual(version.status, 0, version.summary)
        let late = try FilterCamTestSupport.runCLI(["launch", "videotestsrc", "num-buffers=2", "!", "fakesink", "--bogus"])
        XCTAssertEqual(late.status, 1, late.summary)
        XCTAssertTrue(late.stderr.contains("'--bogus' after the description was read as part of it: options go before it"), late.stderr)
    }

    /// Failures that said no reason, or the wrong one: `--messages=-` wrote a file named
    /// `-`; a folder under a file "does not exist"; a preview into a broken link and a
    /// missing picture said only that they failed.
    func testWhatFailedIsSaidWithWhy() throws {
        let dir = try folder()
        let messages = try runCLI(in: dir, ["launch", "--messages=-", "videotestsrc num-buffers=1 ! filtercam snapshot-every=1 snapshot-location=s-%d.jpg ! fakesink"])
        XCTAssertEqual(messages.status, 0, messages.summary)
        XCTAssertTrue(messages.stdoutText.contains("\"name\":\"snapshot-saved\""), messages.stdoutText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path))
        try Data("x".utf8).write(to: dir.appendingPathComponent("afile"))
        let under = try runCLI(in: dir, ["launch", "videotestsrc num-buffers=1 ! filtercam snapshot-every=1 snapshot-location=afile/sub/s-%d.jpg ! fakesink"])
        XCTAssertTrue(under.stderr.contains("'afile' is a file, not a folder: 'afile/sub' cannot be under it"), under.stderr)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("dl").path, withDestinationPath: "/nonexistent/x")
        let link = try runCLI(in: dir, ["filters", "sepia", "--preview", "dl"])
        XCTAssertNotEqual(link.status, 0, link.summary)
        XCTAssertTrue(link.stderr.contains("could not write 'dl/sepia.png': No such file or directory"), link.stderr)
        let picture = try runCLI(in: dir, ["filters", "sepia", "--preview", "pv", "--picture", "/no/such.png"])
        XCTAssertTrue(picture.stderr.contains("cannot read the picture '/no/such.png': No such file or directory"), picture.stderr)
    }

    /// `--messages=FILE` naming the pipeline file emptied it, and then blamed it for
    /// holding no pipeline; a command line refused for another reason emptied FILE too.
    func testMessagesNeverEmptyThePipelineFileOrAFileOfARefusedRun() throws {
        let dir = try folder()
        let text = "videotestsrc num-buffers=1 ! fakesink\n"
        let pipeline = dir.appendingPathComponent("k.pipeline")
        try text.write(to: pipeline, atomically: true, encoding: .utf8)
        let same = try runCLI(in: dir, ["launch", "--messages=./k.pipeline", "k.pipeline"])
        XCTAssertEqual(same.status, 2, same.summary)
        XCTAssertTrue(same.stderr.contains("is the pipeline file itself"), same.stderr)
        XCTAssertEqual(try String(contentsOf: pipeline, encoding: .utf8), text)
        // Stdout by another name, where the stream goes too: refused as --messages alone is.
        let mixed = try runCLI(in: dir, ["launch", "--messages=/dev/stdout", "audiotestsrc num-buffers=3 ! level ! fdsink"])
        XCTAssertEqual(mixed.status, 2, mixed.summary)
        XCTAssertTrue(mixed.stderr.contains("--messages=/dev/stdout writes to stdout, where fdsink0 writes the stream"), mixed.stderr)
        let kept = dir.appendingPathComponent("a.json")
        try "important\n".write(to: kept, atomically: true, encoding: .utf8)
        for refused in [["--messages=a.json", "--bogus", "videotestsrc ! fakesink"], ["--messages=a.json", "videotestsrc ! ! fakesink"],
                        ["--messages=a.json", "nosuchpipeline"]] {
            let r = try runCLI(in: dir, ["launch"] + refused)
            XCTAssertNotEqual(r.status, 0, r.summary)
            XCTAssertEqual(try String(contentsOf: kept, encoding: .utf8), "important\n", "\(refused)")
        }
    }
}
