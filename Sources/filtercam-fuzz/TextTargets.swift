import FilterCore
import FilterCamHost
import FilterCamTool

/// The text a user writes: each parser either accepts the input, and what it accepted
/// behaves, or refuses it with a message.
enum TextTargets {
    static func chain(_ input: UnsafeRawBufferPointer) {
        var bytes = FuzzBytes(input)
        let text = bytes.restAsText()
        let chain: FilterChain
        do {
            chain = try FilterChain.parse(text)
        } catch {
            FuzzCheck.requireMessage(error.message, refusing: text)
            return
        }
        FuzzCheck.require(chain.makeFilters().count == chain.steps.count, "every step of \(text.debugDescription) makes a filter")
        // What `inspect` shows must read back as the same chain.
        let shown = chain.description
        do {
            let again = try FilterChain.parse(shown)
            FuzzCheck.require(again.steps.map(\.id) == chain.steps.map(\.id)
                              && again.steps.map(\.values) == chain.steps.map(\.values),
                              "\(text.debugDescription) is shown as \(shown.debugDescription), which reads back differently")
        } catch {
            FuzzCheck.require(false, "\(text.debugDescription) is shown as \(shown.debugDescription), which is refused: \(error.message)")
        }
    }

    static func lens(_ input: UnsafeRawBufferPointer) {
        var bytes = FuzzBytes(input)
        let width = bytes.int(in: 1...9000), height = bytes.int(in: 1...300)
        let text = bytes.restAsText()
        let lens: LensRect
        do {
            lens = try LensRect(parsing: text)
        } catch {
            FuzzCheck.requireMessage(error.description, refusing: text)
            return
        }
        for (w, h) in [(width, height), (1, 1), (1, 9), (9, 1), (8191, 2)] {
            let r = lens.pixelRect(width: w, height: h)
            FuzzCheck.require(r.width >= 1 && r.height >= 1 && r.x >= 0 && r.y >= 0
                              && r.x + r.width <= w && r.y + r.height <= h,
                              "lens \(text.debugDescription) on \(w)x\(h) gives \(r), not inside the picture")
        }
        // Shown text reads back to the same lens, but for the last-bit noise that
        // `NumberText` leaves out (0.32000000000000006 is shown as 0.32).
        let shown = lens.description
        let back = try? LensRect(parsing: shown)
        FuzzCheck.require(back.map { b in
            zip([b.x, b.y, b.w, b.h], [lens.x, lens.y, lens.w, lens.h]).allSatisfy(NumberText.sameButForNoise)
        } ?? false, "lens \(text.debugDescription) is shown as \(shown), which reads back differently")
    }

    static func command(_ input: UnsafeRawBufferPointer) {
        var bytes = FuzzBytes(input)
        let text = bytes.restAsText()
        do {
            _ = try LiveCommand(line: text)
        } catch {
            FuzzCheck.requireMessage(error.description, refusing: text)
        }
    }

    static func pipelineFile(_ input: UnsafeRawBufferPointer) {
        var bytes = FuzzBytes(input)
        let text = bytes.restAsText()
        let environment = ["WIDTH": "640", "EMPTY": "", "CHAIN": "sepia, vignette", "NESTED": "${WIDTH}"]
        do {
            let file = try PipelineFile(text: text, environment: environment, fileName: "fuzz.pipeline")
            FuzzCheck.require(!file.description.isEmpty && !file.description.contains(where: \.isNewline),
                              "a pipeline file becomes one non-empty line, got \(file.description.debugDescription)")
        } catch {
            let message = "\(error)"
            FuzzCheck.requireMessage(message, refusing: text)
            FuzzCheck.require(message.contains("fuzz.pipeline"), "the refusal names the file: \(message)")
        }
    }
}
