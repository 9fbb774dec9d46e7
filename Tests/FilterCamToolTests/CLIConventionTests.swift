@testable import FilterCamTool
import FilterCore
import FilterCamTestSupport
import Foundation
import XCTest

/// What a newcomer types first: names, versions, and errors that say how to fix them.
final class CLIConventionTests: XCTestCase {
    func testVersion() throws {
        let r = try runCLI(["--version"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdoutText.hasPrefix("filtercam "), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("GStreamer 1."), r.stdoutText)
    }

    func testFiltersDescribesOneFilter() throws {
        let r = try runCLI(["filters", "vignette"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdoutText.contains("radius"), r.stdoutText)
        XCTAssertFalse(r.stdoutText.contains("sepia"), "only the one filter: \(r.stdoutText)")
        let bad = try runCLI(["filters", "sepai"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("sepia"), "lists the filters: \(bad.stderr)")
        // A shipped look named without `look:`, as the elements take it.
        let look = try runCLI(["filters", "teal-orange"])
        XCTAssertNotEqual(look.status, 0)
        XCTAssertTrue(look.stderr.contains("no filter 'teal-orange' (did you mean \"look:teal-orange\"?)"), look.stderr)
        // A colour property of the element is a number (gst-launch refused color=#00FF00).
        let peaking = try runCLI(["filters", "focus-peaking"])
        XCTAssertTrue(peaking.stdoutText.contains("its color property takes 0xAARRGGBB or 0xRRGGBB, #RRGGBB only in a chain"), peaking.stdoutText)
    }

    func testUnknownElementAndPropertyGetDidYouMean() throws {
        let element = try runCLI(["launch", "videotestsrc ! filtercm ! fakesink"])
        XCTAssertNotEqual(element.status, 0)
        XCTAssertTrue(element.stderr.contains("did you mean \"filtercam\""), element.stderr)
        let property = try runCLI(["launch", "videotestsrc ! filtercam filtr=sepia ! fakesink"])
        XCTAssertNotEqual(property.status, 0)
        XCTAssertTrue(property.stderr.contains("did you mean \"filter\""), property.stderr)
    }

    /// An enum's nicks as the element takes them (filtercam's orientation without
    /// GStreamer's `custom`, which it refuses), with a "did you mean" for a slip, the case
    /// included; the same words for another element's enum.
    func testBadEnumValueListsTheNicks() throws {
        let r = try runCLI(["launch", "videotestsrc ! filtercam orientation=sideways ! fakesink"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("orientation takes one of identity, 90r, 180, 90l, horiz, vert, ul-lr, ur-ll, auto\n"), r.stderr)
        let slip = try runCLI(["launch", "videotestsrc ! filtercam orientation=90R ! fakesink"])
        XCTAssertNotEqual(slip.status, 0)
        XCTAssertTrue(slip.stderr.contains("(did you mean \"90r\"?)"), slip.stderr)
        let stock = try runCLI(["launch", "videotestsrc pattern=bal ! fakesink"])
        XCTAssertTrue(stock.stderr.contains("pattern takes one of smpte, snow,") && stock.stderr.contains("(did you mean \"ball\"?)"), stock.stderr)
        // A chain left unquoted: GStreamer reads its second filter as an element.
        let chain = try runCLI(["launch", "videotestsrc num-buffers=1 ! filtercam filter=mono, vignette ! fakesink"])
        XCTAssertNotEqual(chain.status, 0)
        XCTAssertTrue(chain.stderr.contains("'vignette' is a FilterCam filter: a chain of several goes in quotes, e.g. filter=\"mono, vignette\""),
                      chain.stderr)
        // Flags: every name, and a guess for each misspelt one.
        let flags = try runCLI(["launch", "videotestsrc num-buffers=1 ! x264enc tune=stillimage+zerolatenc ! fakesink"])
        XCTAssertNotEqual(flags.status, 0)
        XCTAssertTrue(flags.stderr.contains("tune takes any of stillimage, fastdecode, zerolatency, joined with + (default none) "
                                            + "(did you mean \"stillimage+zerolatency\"?)"), flags.stderr)
    }

    /// A bad value for another element's property, or one GStreamer's parser cannot read,
    /// is answered in words, not `gst-inspect-1.0`'s ("Boolean. Default: true"); a number is
    /// shown as written (2, not 2.000000); a property several elements have is named on all.
    func testBadValuesAreAnsweredInWordsNamingTheElement() throws {
        for (description, says) in [
            ("videotestsrc num-buffers=3 ! fakesink sync=maybe", "sync takes true or false (default true)\n"),
            ("videotestsrc num-buffers=-7 ! fakesink",
             "invalid value -7 for num-buffers of videotestsrc0 or fakesink0: 'num-buffers' takes an integer from -1 to 2147483647 (default -1)\n"),
            ("videotestsrc num-buffers=3 ! fcsepia intensity=2 ! fakesink", "invalid value 2 for fcsepia0.intensity: 'intensity' takes a number from 0 to 1\n"),
            ("videotestsrc num-buffers=3 ! fcfocus-peaking color=#00FF00 ! fakesink", "color takes an integer from 0 to 4294967295, or in hex (0xAARRGGBB for a colour, e.g. 0xFF00FF00)"),
        ] {
            let r = try runCLI(["launch", description])
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertTrue(r.stderr.contains(says), r.stderr)
        }
    }

    /// `filtercam help COMMAND` is that command's usage, as `COMMAND --help` gives it.
    func testHelpWithACommandGivesItsUsage() throws {
        // version's was the overview, and `help version` said there was no such command.
        for command in ["launch", "serve", "filters", "version"] {
            let asked = try runCLI(["help", command]), flag = try runCLI([command, "--help"])
            XCTAssertEqual(asked.status, 0, asked.summary)
            XCTAssertEqual(asked.stdoutText, flag.stdoutText)
            XCTAssertTrue(asked.stdoutText.hasPrefix("usage: filtercam \(command)"), asked.stdoutText)
        }
    }

    /// The conventions of other command-line programs: `--` ends the options (as for
    /// gst-launch-1.0), `-h COMMAND` as `help COMMAND`, a pipeline's name given alone
    /// (words beside it were read as one description: "no element demo"), and
    /// `--messages FILE` (the space form of other options) told to use '='.
    func testOptionConventionsOfOtherPrograms() throws {
        let ended = try runCLI(["launch", "--", "videotestsrc num-buffers=2 ! filtercam ! fakesink"])
        XCTAssertEqual(ended.status, 0, ended.summary)
        XCTAssertTrue(ended.stderr.contains("processed=2"), ended.stderr)
        let help = try runCLI(["-h", "launch"])
        XCTAssertEqual(help.status, 0, help.summary)
        XCTAssertTrue(help.stdoutText.hasPrefix("usage: filtercam launch"), help.stdoutText)
        let extra = try runCLI(["launch", "demo", "extra"])
        XCTAssertEqual(extra.status, 1, extra.summary)
        XCTAssertTrue(extra.stderr.contains("'demo' is a pipeline and is given alone; 'extra' cannot go with it"), extra.stderr)
        let spaced = try runCLI(["launch", "--messages", "m.json", "demo"])
        XCTAssertEqual(spaced.status, 1, spaced.summary)
        XCTAssertTrue(spaced.stderr.contains("hint: --messages takes its file after '=': --messages=m.json"), spaced.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "m.json"))
    }

    /// Output that cannot be written is said and fails the command (as in coreutils), a
    /// reader gone is not an error; a standard stream the caller closed is not taken over by
    /// the next file opened (`fdsink fd=1` wrote its frames into the --messages file), and
    /// writing to it fails as writing to a closed stream does.
    func testOutputsThatCannotBeWritten() throws {
        try Build.requireCLI()
        let full = try runProcess("/bin/sh", ["-c", "exec '\(Build.cli)' filters > /dev/full"])
        XCTAssertEqual(full.status, 1, full.summary)
        XCTAssertTrue(full.stderr.contains("filtercam: cannot write the output: No space left on device"), full.stderr)
        let piped = try runProcess("/bin/sh", ["-c", "'\(Build.cli)' filters | head -1 > /dev/null"])
        XCTAssertFalse(piped.stderr.contains("cannot write"), piped.stderr)
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let messages = dir.appendingPathComponent("m.json").path
        let closed = try runProcess("/bin/sh", ["-c", "exec '\(Build.cli)' launch --messages=\(messages) "
                                                + "'videotestsrc num-buffers=3 ! video/x-raw,width=8,height=8 ! fdsink fd=1' >&-"])
        // The frames cannot be written (as `ls >&-`: it went to /dev/null with status 0).
        XCTAssertEqual(closed.status, 1, closed.summary)
        XCTAssertTrue(closed.stderr.contains("Error while writing to file descriptor 1: Bad file descriptor"), closed.stderr)
        let lines = try String(contentsOfFile: messages, encoding: .utf8).split(separator: "\n")
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("{\"") }, "frames went into the messages file")
        let listing = try runProcess("/bin/sh", ["-c", "exec '\(Build.cli)' filters >&-"])
        XCTAssertEqual(listing.status, 1, listing.summary)
        XCTAssertTrue(listing.stderr.contains("filtercam: cannot write the output: Bad file descriptor"), listing.stderr)
        // stdin closed: GstBus's wake-up socket took fd 0 and the command reader ate its
        // wake-ups; the run hung for good, deaf to Ctrl-C.
        let noInput = try runProcess("/bin/sh", ["-c", "exec '\(Build.cli)' launch 'videotestsrc num-buffers=3 ! filtercam ! fakesink' <&-"],
                                     timeout: 20)
        XCTAssertFalse(noInput.timedOut, noInput.summary)
        XCTAssertTrue(noInput.stderr.contains("processed=3"), noInput.summary)
        // A messages file that cannot be written: said once, and the run fails.
        let lost = try runCLI(["launch", "--messages=/dev/full", "videotestsrc num-buffers=3 ! video/x-raw,width=64,height=48 ! "
                               + "filtercam snapshot-every=1 snapshot-location=\(dir.path)/s-%d.jpg ! fakesink"])
        XCTAssertEqual(lost.status, 1, lost.summary)
        XCTAssertEqual(lost.stderr.components(separatedBy: "cannot write messages to '/dev/full': No space left on device; the messages from here on are lost").count, 2, lost.stderr)
        XCTAssertTrue(lost.stderr.contains("filtercam launch: messages were lost ("), lost.stderr)
    }

    /// Two elements of one name: said before GStreamer's parser leaves the second out with
    /// four warnings and a link error that does not say why.
    func testTwoElementsOfOneNameAreNamed() throws {
        let r = try runCLI(["launch", "videotestsrc num-buffers=3 ! filtercam name=a ! identity name=\"a\" ! fakesink"])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("filtercam launch: two elements are named 'a': each element's name must be its own"), r.stderr)
        XCTAssertFalse(r.stderr.contains("GStreamer-WARNING"), r.stderr)
        XCTAssertEqual(Pipeline.repeatedName(in: "tee name=t ! queue ! fakesink t. ! queue name='t 2' ! fakesink name=\"t 2\""), "t 2")
        XCTAssertNil(Pipeline.repeatedName(in: "videotestsrc ! filtercam name=a filter=\"lut file=name=a\" ! fakesink name=b"))
    }

    /// Arguments a command does not read are named, not left unread; a preview folder that
    /// cannot be one is said in words.
    func testEveryArgumentIsReadOrNamed() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("afile").path
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        for (arguments, status, says) in [
            (["filters", "sepia", "mono"], Int32(2), "filtercam filters: one filter at a time, not 2 (sepia, mono)"),
            (["filters", "--picture", "x.png"], 2, "filtercam filters: unknown option '--picture' (it goes with --preview"),
            (["filters", "--previw", "d"], 2, "(did you mean \"--preview\"?)"),
            (["inspect", "a", "b"], 2, "filtercam inspect: one element at a time, not 2 (a, b)"),
            (["version", "extra"], 2, "filtercam version takes no arguments, not 'extra'"),
            ([], 2, "filtercam: name a command\nusage: filtercam COMMAND"),
            (["help", "lanch"], 2, "filtercam help: no command 'lanch' (did you mean \"launch\"?)"),
            (["help", "a", "b"], 2, "filtercam help takes one command at most (filtercam help launch), not 'a b'"),
            (["filters", "--preview", file], 1, "filtercam filters --preview: '\(file)' is a file, not a folder"),
            (["filters", "--preview", file + "/sub"], 1, "filtercam filters --preview: '\(file)' is a file, not a folder"),
        ] {
            let r = try runCLI(arguments)
            XCTAssertEqual(r.status, status, r.summary)
            XCTAssertTrue(r.stderr.contains(says), r.stderr)
            XCTAssertFalse(r.stderr.contains("NSCocoaErrorDomain"), r.stderr)
        }
        // --help and -h work on every command, these two too.
        for arguments in [["version", "-h"], ["help", "--help"]] {
            let r = try runCLI(arguments)
            XCTAssertEqual(r.status, 0, r.summary)
            XCTAssertTrue(r.stdoutText.contains("usage"), r.summary)
        }
    }

    /// A slip anywhere gets a "did you mean": the program's commands and options, an
    /// element for inspect, a live command, a property in a live `set`, a look without its
    /// `look:`.
    func testSlipsGetADidYouMeanEverywhere() throws {
        XCTAssertTrue(try runCLI(["lanch", "demo"]).stderr.contains("unknown command 'lanch' (did you mean \"launch\"?)"))
        XCTAssertTrue(try runCLI(["launch", "--mesages", "demo"]).stderr.contains("(did you mean \"--messages\"?)"))
        XCTAssertTrue(try runCLI(["inspect", "fcsepa"]).stderr.contains("no element 'fcsepa' (did you mean \"fcsepia\"?)"))
        let look = try runCLI(["launch", "videotestsrc num-buffers=1 ! filtercam filter=teal-orange ! fakesink"])
        XCTAssertTrue(look.stderr.contains("unknown filter 'teal-orange' (did you mean \"look:teal-orange\"?)"), look.stderr)
        let live = try runCLI(["launch", "videotestsrc is-live=true ! filtercam ! fakesink"],
                              stdin: "set filtr=mono\nrotat\nquit\n", timeout: 30)
        XCTAssertTrue(live.stderr.contains("has no property 'filtr' (did you mean \"filter\"?)"), live.stderr)
        XCTAssertTrue(live.stderr.contains("unknown command 'rotat' (did you mean \"rotate\"?)"), live.stderr)
        // An element named as its factory is (GStreamer drops the '-'), and only the pipeline's
        // own elements are listed, not the inner ones of filtercamsrc.
        let named = try runCLI(["launch", "filtercamsrc ! fcchannel-mix ! fakesink"],
                               stdin: "set fcchannel-mix0.matrix=1\nquit\n", timeout: 30)
        XCTAssertTrue(named.stderr.contains("no element 'fcchannel-mix0' in the pipeline (did you mean \"fcchannelmix0\"?); "
                                            + "elements: filtercamsrc0, fcchannelmix0, fakesink0"), named.stderr)
    }

    /// A folder given for a pipeline file is named as one, with the files in it; a link that
    /// fails between two other elements gets no FilterCam format hint (it has nothing to do
    /// with them), one into a FilterCam element does.
    func testAFolderAndAnotherElementsLinkAreNamedForWhatTheyAre() throws {
        // A DISPLAY nothing answers on (a stale one): autovideosink crashed (139, no word).
        let stale = try runCLI(["launch", "videotestsrc num-buffers=1 ! videoconvert ! autovideosink"],
                               environment: ["DISPLAY": ":199", "WAYLAND_DISPLAY": nil])
        XCTAssertEqual(stale.status, 1, stale.summary)
        XCTAssertTrue(stale.stderr.contains("nothing answers on the display :199"), stale.stderr)
        let device = try runCLI(["launch", "/dev/null"])
        XCTAssertNotEqual(device.status, 0)
        XCTAssertTrue(device.stderr.contains("'/dev/null' is not a regular file"), device.stderr)
        let folder = try runCLI(["launch", Build.packageRoot + "/pipelines"])
        XCTAssertNotEqual(folder.status, 0)
        XCTAssertTrue(folder.stderr.contains("is a folder, not a pipeline file; its pipeline files: demo.pipeline,"), folder.stderr)
        let other = try runCLI(["launch", "videotestsrc num-buffers=1 ! videoconvert ! video/x-raw,format=XYZ ! fakesink"])
        XCTAssertNotEqual(other.status, 0)
        XCTAssertTrue(other.stderr.contains("could not link"), other.stderr)
        XCTAssertFalse(other.stderr.contains("hint:"), other.stderr)
        let ours = try runCLI(["launch", "videotestsrc num-buffers=1 ! video/x-h264 ! filtercam ! fakesink"])
        XCTAssertTrue(ours.stderr.contains("hint: FilterCam elements take raw video"), ours.stderr)
    }

    /// Piped commands answer in the order of their lines, a line that is no command
    /// included (its error came at once, before the answers of the lines above it).
    func testPipedCommandsAnswerInTheOrderOfTheirLines() throws {
        let r = try runCLI(["launch", "videotestsrc is-live=true ! filtercam ! fakesink"],
                           stdin: "filter mono\nfrobnicate\nfilter sepia\nlens-at abc\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        let answers = r.stderr.split(separator: "\n").filter { $0.hasPrefix("filter:") || $0.hasPrefix("command error:") }
        let expected = ["filter: mono", "command error: unknown command 'frobnicate'", "filter: sepia", "command error: 'lens-at' needs X,Y"]
        XCTAssertEqual(answers.count, expected.count, r.stderr)
        for (answer, start) in zip(answers, expected) { XCTAssertTrue(answer.hasPrefix(start), "\(answer) should start \(start): \(r.stderr)") }
    }

    /// With two FilterCam elements a command names the one it is for (`snapshot b`): no
    /// command took a still from one of them (`snapshot` was refused, and `set` cannot ask
    /// for one). Without a name it is refused naming both; a name that is not a FilterCam
    /// element, or a stray word, is said so.
    func testACommandAimedAtOneOfTwoFilterCams() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! filtercam name=a snapshot-location=\(dir.path)/a-%d.jpg "
                            + "! filtercam name=b snapshot-location=\(dir.path)/b-%d.jpg ! fakesink"],
                           stdin: "snapshot\nsnapshot b\nrotate a\nrotate 90\nmirror videotestsrc0\ngallery b\nclose-gallery\nquit a\nquit\n",
                           timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        let answers = r.stderr.split(separator: "\n").filter { $0.hasPrefix("command error:") || $0.hasPrefix("a: rotate:") || $0.hasPrefix("b: saved") }
        XCTAssertEqual(answers.count, 6, r.stderr)
        // Esc's command closes the one gallery open (it said nothing and closed none); quit takes no name.
        XCTAssertTrue(r.stderr.contains("gallery: open") && r.stderr.contains("gallery: closed"), r.stderr)
        XCTAssertTrue(answers.contains { $0.contains("'quit' takes no element") }, r.stderr)
        XCTAssertTrue(answers[0].contains("several FilterCam elements (a, b)") && answers[0].contains("'snapshot a'"), r.stderr)
        // The answer names the element it came from (two could say "rotate: …"), and so does
        // the line of the still it wrote.
        XCTAssertTrue(answers.contains { $0.hasPrefix("a: rotate: 90° clockwise") }, r.stderr)
        XCTAssertTrue(r.stderr.contains("b: gallery: open"), r.stderr)
        XCTAssertTrue(answers.contains { $0.contains("no element '90'") && $0.contains("'rotate' takes no other word") }, r.stderr)
        XCTAssertTrue(answers.contains { $0.contains("'mirror' is for a FilterCam element; 'videotestsrc0' is none") }, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["b-0.jpg"], r.stderr)
    }

    /// One `filtercam` beside `fc<id>` elements takes the commands without a name (they were
    /// refused as aimed at several elements, though only it can turn or take a still), and
    /// `set PROP` goes to the only element with PROP.
    func testCommandsGoToTheOnlyElementThatTakesThem() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! fcsepia ! filtercam snapshot-location=\(dir.path)/s-%d.jpg "
                            + "! fcinvert ! fakesink"],
                           stdin: "rotate\nset zoom=2\nsnapshot\nset intensity=0.5\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("rotate: 90° clockwise"), r.stderr)
        XCTAssertTrue(r.stderr.contains("set filtercam0.zoom = 2"), r.stderr)
        // All three have intensity: that one still needs a name, and the example is filtercam.
        XCTAssertTrue(r.stderr.contains("several FilterCam elements (fcsepia0, filtercam0, fcinvert0)") && r.stderr.contains("'snapshot filtercam0'"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["s-0.jpg"], r.stderr)
        // The answer names the element that took it, as a named command's does.
        XCTAssertTrue(r.stderr.contains("filtercam0: rotate: 90° clockwise"), r.stderr)
        // Only fc<id> elements: no command but set, and the refusal says so (it suggested
        // 'snapshot fcsepia0', which then failed).
        let only = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! fcsepia ! fakesink"],
                              stdin: "snapshot\nquit\n", timeout: 30)
        XCTAssertTrue(only.stderr.contains("are fc<id> filters, which take only 'set fcsepia0.PROP=VALUE'"), only.stderr)
    }

    /// Without any FilterCam element, a command is refused saying so (it said to name one
    /// with ELEMENT.PROP, which no `snapshot` takes); `set` still points to ELEMENT.PROP.
    func testACommandWithoutAnyFilterCamElement() throws {
        let r = try runCLI(["launch", "audiotestsrc is-live=true ! fakesink"], stdin: "snapshot\nset volume=1\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("command error: the pipeline has no FilterCam element to take the command"), r.stderr)
        XCTAssertTrue(r.stderr.contains("command error: the pipeline has no filtercam element; name one with ELEMENT.PROP"), r.stderr)
    }

    /// A live `set` with a bad value answers on one line (it printed GStreamer's whole enum
    /// table, 12 to 28 lines); a number out of a property's range names the range.
    func testALiveSetWithABadValueAnswersOnOneLine() throws {
        let r = try runCLI(["launch", "videotestsrc is-live=true ! filtercam ! fakesink"],
                           stdin: "set orientation=90R\nset videotestsrc0.pattern=bal\nset intensity=3\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("command error:") }
        XCTAssertEqual(errors.count, 3, r.stderr)
        XCTAssertTrue(errors[0].hasSuffix("orientation takes one of identity, 90r, 180, 90l, horiz, vert, ul-lr, ur-ll, auto (did you mean \"90r\"?)"), r.stderr)
        XCTAssertTrue(errors[1].hasSuffix("(did you mean \"ball\"?)"), r.stderr)
        XCTAssertTrue(errors[2].hasSuffix("intensity takes a number from 0 to 1"), r.stderr)
        XCTAssertFalse(r.stderr.contains("GST_VIDEO_ORIENTATION") || r.stderr.contains("(0):"), r.stderr)
    }

    /// `filtercam launch` on a pipeline file holding `text`, in a folder of its own.
    private func launchFile(_ name: String, _ text: String) throws -> ProcessResult {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try runCLI(["launch", file.path])
    }

    func testSyntaxErrorInAFileNamesTheLine() throws {
        let r = try launchFile("broken.pipeline", "# a comment\nvideotestsrc num-buffers=3\n  ! filtercam filter=sepia !\n  ! fakesink\n")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("line 4"), r.stderr)
        // A '!' at the end of the last line: every line but the last may end in one.
        let trailing = try launchFile("trailing.pipeline", "videotestsrc num-buffers=3 !\n  fakesink !\n# the end\n")
        XCTAssertNotEqual(trailing.status, 0)
        XCTAssertTrue(trailing.stderr.contains("the description ends with '!' at line 2"), trailing.stderr)
    }

    /// `filtercam bench` checks its options before measuring for minutes: each wrong one
    /// is named with what it takes (the rest, `--sizes 16x16 --only copy`, would be a short
    /// run if it were not refused).
    func testBenchRefusesAWrongOptionAtOnceNamingWhatItTakes() throws {
        let quick = ["--sizes", "16x16", "--only", "copy"]
        let cases: [([String], String)] = [
            (["--only", "mono-i42"], "no case is called 'mono-i42'"),
            (["--only", "i420-mnoo"], "(did you mean \"i420-mono\"?)"),
            (["--runs", "0"], "--runs takes a whole number of runs from 1 up, not '0'"),
            (["--runs", "abc"], "not 'abc'"),
            (["--sizes", "640x480,foo"], "'foo' is not a size"),
            (["--json", "/no/such/folder/rows.json"], "cannot write '/no/such/folder/rows.json': there is no folder '/no/such/folder'"),
        ]
        for (wrong, expected) in cases {
            let r = try runCLI(["bench"] + wrong + quick)
            XCTAssertEqual(r.status, 2, "\(wrong): \(r.summary)")
            XCTAssertTrue(r.stderr.contains(expected), "\(wrong): \(r.stderr)")
            XCTAssertTrue(r.stdoutText.isEmpty, "\(wrong) measured before refusing: \(r.stdoutText)")
        }
        let bare = try runCLI(["bench", "--only"])
        XCTAssertEqual(bare.status, 2, bare.summary)
        XCTAssertTrue(bare.stderr.contains("--only takes one or more of: copy, ") && bare.stderr.contains("e2e"), bare.stderr)
    }

    func testHelpOnEveryCommandGoesToStdoutAndSucceeds() throws {
        for command in ["launch", "serve", "inspect", "filters", "devices", "bench"] {
            for flag in ["--help", "-h"] {
                let r = try runCLI([command, flag])
                XCTAssertEqual(r.status, 0, "\(command) \(flag): \(r.summary)")
                XCTAssertTrue(r.stdoutText.hasPrefix("usage: filtercam \(command)"), "\(command) \(flag): \(r.stdoutText)")
                XCTAssertTrue(r.stderr.isEmpty, "\(command) \(flag) printed on stderr: \(r.stderr)")
                let long = r.stdoutText.split(separator: "\n").filter { $0.count > 80 }.map(String.init)
                XCTAssertTrue(long.isEmpty, "\(command) \(flag): lines past 80 columns: \(long)")
            }
        }
    }

    /// The options `text` names (`--port`, `--messages`, …), `--help` aside.
    private func options(in text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "--[a-z][a-z-]*")
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
            .subtracting(["--help"])
    }

    func testTopLevelHelpNamesEveryOptionOfEveryCommandWithinEightyColumns() throws {
        let top = try runCLI(["--help"])
        XCTAssertEqual(top.status, 0, top.summary)
        for command in ["launch", "serve", "inspect", "filters", "devices", "bench"] {
            let own = try runCLI([command, "--help"]).stdoutText
            let missing = options(in: own).subtracting(options(in: top.stdoutText))
            XCTAssertTrue(missing.isEmpty, "filtercam --help lacks \(command)'s \(missing.sorted())")
            XCTAssertTrue(top.stdoutText.contains("\n  \(command)"), "\(command) not listed: \(top.stdoutText)")
        }
        for variable in ["FILTERCAM_LOOKS", "FILTERCAM_SERVE_AUTH", "GST_PLUGIN_PATH"] {
            XCTAssertTrue(top.stdoutText.contains(variable), variable)
        }
        let long = top.stdoutText.split(separator: "\n").filter { $0.count > 80 }.map(String.init)
        XCTAssertTrue(long.isEmpty, "lines past 80 columns: \(long)")
    }

    func testLaunchHelpGivesEachShippedPipelineInWholeSentencesWithinEightyColumns() throws {
        let r = try runCLI(["launch", "--help"])
        XCTAssertEqual(r.status, 0, r.summary)
        let long = r.stdoutText.split(separator: "\n").filter { $0.count > 80 }.map(String.init)
        XCTAssertTrue(long.isEmpty, "lines past 80 columns: \(long)")
        // Each entry: "  NAME  what it does, in sentences," and then its variables.
        let listing = try XCTUnwrap(r.stdoutText.components(separatedBy: "shipped pipelines").last?.components(separatedBy: "\nkeys, ").first)
        var entries: [String] = []
        for line in listing.split(separator: "\n").dropFirst() {
            if line.hasPrefix("  ") && !line.hasPrefix("   ") { entries.append(String(line)) } else if !entries.isEmpty { entries[entries.count - 1] += "\n" + line }
        }
        XCTAssertGreaterThan(entries.count, 5, listing)
        for entry in entries {
            // Its variables' lines hold NAME=VALUE words only; the rest is what it does.
            let words = entry.split(separator: "\n").filter { line in !line.split(separator: " ").allSatisfy { $0.contains("=") } }
                .flatMap { $0.split(separator: " ") }.dropFirst()
            XCTAssertTrue(words.last?.hasSuffix(".") ?? false, "not a whole sentence: \(entry)")
        }
        // A default that names other variables is shown as it runs.
        XCTAssertTrue(r.stdoutText.contains("SOURCE=\"filtercamsrc camera=back preset=640x480 num-buffers=-1\""), r.stdoutText)
        XCTAssertFalse(listing.contains("${"), listing)
        // The keys as a table of key and action (KeymapTests checks its layout).
        XCTAssertTrue(r.stdoutText.contains("\n" + Keymap.helpText), r.stdoutText)
    }

    func testLaunchHelpListsTheShippedPipelinesWithTheirVariables() throws {
        let r = try runCLI(["launch", "--help"])
        XCTAssertEqual(r.status, 0, r.summary)
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Build.packageRoot + "/pipelines")
            .filter { $0.hasSuffix(".pipeline") }.map { String($0.dropLast(".pipeline".count)) }
        XCTAssertFalse(shipped.isEmpty)
        for name in shipped {
            XCTAssertTrue(r.stdoutText.contains("\n  \(name) ") || r.stdoutText.contains("\n  \(name)\n"), "\(name) not listed: \(r.stdoutText)")
        }
        // demo.pipeline reads ${FRAMES:-150} and ${OUT:-demo.mp4}.
        XCTAssertTrue(r.stdoutText.contains("FRAMES=150"), r.stdoutText)
        XCTAssertTrue(r.stdoutText.contains("OUT=demo.mp4"), r.stdoutText)
    }

    /// Run by name from PATH in another folder, argv[0] is just "filtercam": the shipped
    /// pipelines are still found beside the binary (the package it was built in).
    func testShippedPipelinesAreFoundWhenRunByNameFromPath() throws {
        try Build.requireCLI()
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("fc-by-name-\(getpid())")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let binFolder = URL(fileURLWithPath: Build.cli).deletingLastPathComponent().path
        let path = binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try runProcess("/bin/sh", ["-c", "cd '\(elsewhere.path)' && exec filtercam launch --help"], environment: ["PATH": path])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdoutText.contains("\n  demo "), "demo not listed when run by name: \(r.stdoutText)")
        XCTAssertTrue(r.stdoutText.contains("\n  preview "), "preview not listed when run by name: \(r.stdoutText)")
    }

    func testAMistypedPipelineNameSuggestsTheShippedOne() throws {
        let r = try runCLI(["launch", "previw"])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("no pipeline file previw.pipeline"), r.stderr)
        XCTAssertTrue(r.stderr.contains("did you mean \"preview\""), r.stderr)
        XCTAssertTrue(r.stderr.contains("shipped pipelines: demo"), r.stderr)
    }

    /// Variables given after the command, as make takes them, are named with where they go.
    func testVariablesAfterTheCommandSayToSetThemBefore() throws {
        let r = try runCLI(["launch", "preview", "FILTER=mono"])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("FILTER=mono is a variable of the pipeline file: set it before the command, "
            + "as for any program: FILTER=mono filtercam launch preview"), r.stderr)
        XCTAssertFalse(r.stderr.contains("no element"), r.stderr)
        // The command to type is quoted where a shell needs it (it said SNAPDIR=my stills …).
        let spaced = try runCLI(["launch", "SNAPDIR=my stills", "snapshot"])
        XCTAssertTrue(spaced.stderr.contains("as for any program: 'SNAPDIR=my stills' filtercam launch snapshot"), spaced.stderr)
    }

    func testAnUnknownOptionIsNamed() throws {
        let r = try runCLI(["launch", "--bogus", "x"])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("unknown option '--bogus'"), r.stderr)
    }

    func testAMistypedFilterIdGetsDidYouMean() throws {
        let listed = try runCLI(["filters", "sepai"])
        XCTAssertTrue(listed.stderr.contains("did you mean \"sepia\""), listed.stderr)
        let set = try runCLI(["launch", "videotestsrc num-buffers=1 ! filtercam filter=sepai ! fakesink"])
        XCTAssertNotEqual(set.status, 0)
        XCTAssertTrue(set.stderr.contains("did you mean \"sepia\""), set.stderr)
    }

    func testCSourceLocationsOnlyWhenAskedFor() throws {
        let plain = try runCLI(["launch", "videotestsrc num-buffers=1 ! filtercam filter=sepai ! fakesink"])
        XCTAssertTrue(plain.stderr.contains("unknown filter"), plain.stderr)
        XCTAssertFalse(plain.stderr.contains(".c("), "a C source location for a user: \(plain.stderr)")
        let verbose = try runCLI(["launch", "--verbose", "videotestsrc num-buffers=1 ! filtercam filter=sepai ! fakesink"])
        XCTAssertTrue(verbose.stderr.contains("shim.c("), verbose.stderr)
    }

    func testAnUnclosedQuoteNamesItsLine() throws {
        let r = try launchFile("quote.pipeline", "# a \"quoted\" comment\nvideotestsrc num-buffers=3\n  ! filtercam filter=\"sepia\n  ! fakesink\n")
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("quote.pipeline:3: a double quote is never closed"), r.stderr)
        let closed = try runCLI(["launch", "videotestsrc num-buffers=3 ! filtercam filter=\"sepia, vignette\" ! fakesink"])
        XCTAssertEqual(closed.status, 0, closed.summary)
    }

    /// A link that fails names the line of the element it could not reach (it named the
    /// file alone), for launch and serve; an element named by the file is found too.
    func testALinkErrorNamesItsLine() throws {
        let file = try writePipelineFile("# my pipeline\nvideotestsrc num-buffers=5\n  ! video/x-raw,format=GRAY8\n  ! filtercam filter=mono\n  ! fakesink\n")
        for command in ["launch", "serve"] {
            let r = try runCLI(command == "serve" ? [command, "--port", "0", file.path] : [command, file.path])
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertTrue(r.stderr.contains("plain.pipeline:4: could not link videotestsrc0 to filtercam0"), r.stderr)
            XCTAssertTrue(r.stderr.contains("hint: filtercam0 cannot take GRAY8 frames"), r.stderr)
        }
        let named = try writePipelineFile("videotestsrc num-buffers=5 ! video/x-raw,format=GRAY8\n  ! queue\n  ! filtercam name=cam\n  ! fakesink\n")
        let r = try runCLI(["launch", named.path])
        XCTAssertTrue(r.stderr.contains("plain.pipeline:3: could not link queue0 to cam"), r.stderr)
        // Audio after the element: no encoder makes audio of video (the hint said to put one).
        let audio = try writePipelineFile("videotestsrc num-buffers=5\n  ! filtercam\n  ! audioconvert\n  ! fakesink\n")
        let a = try runCLI(["launch", audio.path])
        XCTAssertTrue(a.stderr.contains("plain.pipeline:3: could not link filtercam"), a.stderr)
        XCTAssertTrue(a.stderr.contains("not video: filtercam0 gives raw video"), a.stderr)
        XCTAssertFalse(a.stderr.contains("put an encoder"), a.stderr)
    }

    /// A doubled '!' in demo.pipeline: GStreamer's parser logs a CRITICAL for it (once, as
    /// under gst-launch-1.0); the parses that find the line logged it again, in the middle of
    /// the error's lines.
    func testASyntaxErrorsLineComesWithoutRepeatedParserNoise() throws {
        let demo = try String(contentsOfFile: Build.packageRoot + "/pipelines/demo.pipeline", encoding: .utf8)
        let broken = demo.replacingOccurrences(of: "  ! x264enc", with: "  ! ! x264enc")
        XCTAssertNotEqual(broken, demo)
        let r = try runCLI(["launch", try writePipelineFile(broken).path])
        XCTAssertEqual(r.status, 1, r.summary)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        guard let error = lines.firstIndex(where: { $0.contains("plain.pipeline: syntax error") }) else { return XCTFail(r.stderr) }
        XCTAssertTrue(lines[error + 1].contains("the syntax error is at line") && lines[error + 1].contains("! ! x264enc"), r.stderr)
        XCTAssertLessThanOrEqual(r.stderr.components(separatedBy: "CRITICAL").count - 1, 1, r.stderr)
    }

    /// What GStreamer calls only a "syntax error", or a failed link, in a description typed
    /// on the command line or a file: said in words (the file's version had its line; the
    /// command line's had nothing, and a caps field given text blamed the next element).
    func testSyntaxErrorsAndMistypedCapsAreSaidInWords() throws {
        for (description, words) in [("videotestsrc !", "the description ends with '!', with nothing after it"),
                                     ("! fakesink", "the description starts with '!', with no element before it"),
                                     ("videotestsrc ! ! fakesink", "two '!' with no element between them: videotestsrc ! ! fakesink")] {
            let r = try runCLI(["launch", description])
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertTrue(r.stderr.contains("filtercam launch: syntax error\n  \(words)"), r.stderr)
        }
        let continued = try writePipelineFile("videotestsrc num-buffers=3 \\\n  ! fakesink\n")
        let c = try runCLI(["launch", continued.path])
        XCTAssertTrue(c.stderr.contains("the syntax error is at line 1") && c.stderr.contains("needs no '\\' to go on at the next line"), c.stderr)

        let caps = try writePipelineFile("videotestsrc num-buffers=3\n  ! video/x-raw,width=abc\n  ! fakesink\n")
        let k = try runCLI(["launch", caps.path])
        XCTAssertTrue(k.stderr.contains("\(caps.path):2: could not link"), k.stderr)
        XCTAssertTrue(k.stderr.contains("width takes a whole number (width=640), not 'abc'"), k.stderr)
        let rate = try runCLI(["launch", "videotestsrc num-buffers=3 ! video/x-raw,framerate=thirty ! fakesink"])
        XCTAssertTrue(rate.stderr.contains("framerate takes a fraction (framerate=30/1), not 'thirty'"), rate.stderr)
        let fine = try runCLI(["launch", "videotestsrc num-buffers=3 ! video/x-raw,framerate=30000/1001 ! fakesink"])
        XCTAssertEqual(fine.status, 0, fine.summary)
    }

    /// FILTERCAM_LOOKS set empty leaves the shipped looks out: a look asked for says so
    /// (it said the filtercam program loads them, which this is).
    func testALookAskedForWithLooksLeftOutSaysWhy() throws {
        let r = try runCLI(["filters", "look:teal-orange"], environment: ["FILTERCAM_LOOKS": ""])
        XCTAssertNotEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("FILTERCAM_LOOKS is set empty, which leaves the shipped ones out"), r.stderr)
    }

    /// A bad value that a variable put into a file fails when the element starts: the error
    /// names the file's line, where the value shows.
    func testAnElementsErrorNamesTheFilesLine() throws {
        let file = try writePipelineFile("videotestsrc num-buffers=3\n  ! filtercam filter=${FILTER:-sepia}\n  ! fakesink\n")
        let r = try runCLI(["launch", file.path], environment: ["FILTER": "sepai"])
        XCTAssertNotEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("unknown filter 'sepai'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("  in \(file.path):2: ! filtercam filter=sepai"), r.stderr)
    }

    /// What a newcomer types first: a shipped pipeline's name as a command, an element's
    /// property given to inspect.
    func testAPipelineNameAsACommandAndAPropertyToInspectSayWhatToType() throws {
        let record = try runCLI(["record"])
        XCTAssertEqual(record.status, 2, record.summary)
        XCTAssertTrue(record.stderr.contains("(to run the shipped record.pipeline: filtercam launch record)"), record.stderr)
        let lens = try runCLI(["inspect", "filtercam.lens"])
        XCTAssertNotEqual(lens.status, 0, lens.summary)
        XCTAssertTrue(lens.stderr.contains("filtercam inspect filtercam lists it among its properties"), lens.stderr)
        let typo = try runCLI(["inspect", "filtercam.lenz"])
        XCTAssertTrue(typo.stderr.contains("it has none called 'lenz'"), typo.stderr)
    }

    /// A value FilterCam refuses stops the pipeline before the sink downstream opens its
    /// file: the last good recording is not emptied by a typo.
    func testARefusedValueLeavesTheOutputFileAsItWas() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let kept = dir.appendingPathComponent("record.mp4")
        try Data("the last good recording".utf8).write(to: kept)
        for wrong in ["filter=bogus", "lens=0,0,2,2"] {
            let r = try runCLI(["launch", "videotestsrc num-buffers=3 ! filtercam \(wrong) ! filesink location=\(kept.path)"])
            XCTAssertNotEqual(r.status, 0, r.summary)
            XCTAssertTrue(r.stderr.contains("pipeline refused to start"), r.stderr)
            XCTAssertEqual(try String(contentsOf: kept, encoding: .utf8), "the last good recording", wrong)
        }
    }

    /// A sink that cannot open its file: its error once, without GStreamer's follow-up
    /// ("state change failed and some element failed to post a proper error message").
    func testAnElementsErrorAtStartIsSaidOnce() throws {
        let r = try runCLI(["launch", "videotestsrc num-buffers=3 ! filesink location=/no/such/folder/x.raw"])
        XCTAssertNotEqual(r.status, 0, r.summary)
        let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("ERROR from element") }
        XCTAssertEqual(errors.count, 1, r.stderr)
        XCTAssertTrue(errors.first?.contains("/no/such/folder/x.raw") ?? false, r.stderr)
    }

    /// `text` as plain.pipeline in a folder of its own, removed after the test.
    private func writePipelineFile(_ text: String) throws -> URL {
        let dir = try makeTempDir()
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("plain.pipeline")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func testAVariableTheFileDoesNotReadIsNamed() throws {
        let file = try writePipelineFile("videotestsrc num-buffers=3 ! filtercam filter=${FILTER:-sepia} ! fakesink\n")
        let dir = file.deletingLastPathComponent()
        // LENS is read by shipped pipelines (preview, demo), not by this file.
        let r = try runCLI(["launch", file.path], environment: ["LENS": "0,0,0.5,0.5"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("note: LENS is set, but plain.pipeline does not read it (it reads FILTER)"), r.stderr)
        let reading = dir.appendingPathComponent("lens.pipeline")
        try "videotestsrc num-buffers=3 ! filtercam lens=${LENS} ! fakesink\n".write(to: reading, atomically: true, encoding: .utf8)
        let quiet = try runCLI(["launch", reading.path], environment: ["LENS": "0,0,0.5,0.5"])
        XCTAssertEqual(quiet.status, 0, quiet.summary)
        XCTAssertFalse(quiet.stderr.contains("note:"), quiet.stderr)
        // The shipped recording reads it now (the lens applies to recordings too).
        let record = try String(contentsOf: URL(fileURLWithPath: Build.packageRoot).appendingPathComponent("pipelines/record.pipeline"), encoding: .utf8)
        XCTAssertTrue(record.contains("lens=${LENS:-0,0,1,1}"), record)
    }

    func testAMissingVirtualCameraSaysHowToLoadTheModule() throws {
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/dev/video10"), "this machine has /dev/video10")
        let r = try runCLI(["launch", "virtualcam"], environment: ["SOURCE": "videotestsrc num-buffers=3"], timeout: 30)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("Cannot identify device '/dev/video10'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("modprobe v4l2loopback"), r.stderr)
    }

    func testLaunchFindsAShippedPipelineByName() throws {
        let r = try runCLI(["launch", "rawout"], environment: ["SOURCE": "videotestsrc num-buffers=3", "WIDTH": "16", "HEIGHT": "8"], timeout: 30)
        XCTAssertFalse(r.stderr.contains("no element"), r.stderr)
        XCTAssertTrue(r.stderr.contains("processed="), r.summary)
    }
}

/// The README's face example: a photo of any size, found, and `quit` honoured at once.
final class ShippedPipelineTests: XCTestCase {
    func testFaceExampleFindsTheFaceAndQuits() throws {
        let photo = Build.packageRoot + "/Tests/FilterCamHostTests/Fixtures/faces/astronaut.png"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: photo), "fixture missing")
        // The photo repeats until the first face is reported (a debug build on a busy
        // machine can take seconds for it), then `quit` ends the run cleanly.
        try Build.requireCLI()
        let p = try RunningProcess(Build.cli, ["launch", "--messages", Build.packageRoot + "/pipelines/faces.pipeline"],
                                   environment: ["SOURCE": "filesrc location=\(photo) ! pngdec ! videoconvert ! imagefreeze is-live=true",
                                                 "SINK": "fakesink"])
        let deadline = Date().addingTimeInterval(60)
        var found = false
        while !found && Date() < deadline && p.process.isRunning {
            found = String(decoding: p.stdoutSoFar, as: UTF8.self).contains("\"faces\":[{")
            if !found { usleep(20_000) }
        }
        XCTAssertTrue(found, "no face reported: \(p.stderrSoFar)")
        p.write("quit\n")
        let r = p.wait(timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        let faces = r.stderr.components(separatedBy: "faces=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        XCTAssertGreaterThan(faces, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("not-negotiated"), r.stderr)
    }

    func testQuitWithNothingRecordingTakesUnderTwoSeconds() throws {
        let start = Date()
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! videoconvert ! filtercam ! fakesink"],
                           stdin: "quit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        // Start-up and the first frame, then at most 1.5 s for an EOS a live source may never send.
        XCTAssertLessThan(Date().timeIntervalSince(start), 4, r.summary)
        XCTAssertFalse(r.stderr.contains("may be incomplete"), r.stderr)
    }
}
