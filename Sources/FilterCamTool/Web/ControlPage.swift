import CGStreamer
import FilterCore
import Foundation

/// What `filtercam serve --web` serves besides WHEP: the control page at `/` (the live
/// picture, a filter picker, rotate, mirror, still, record, the lens under the pointer)
/// and POST /control, one command line per request in the terminal's and the window's
/// vocabulary (`ControlCommand`), run by the session like a line typed on stdin, so a
/// change shows for every viewer. A still comes back as its JPEG.
public final class ControlPage: Sendable {
    /// Requests are handled on the web server's thread; commands go to the session's loop.
    private let session: PipelineSession.Inbox
    private let thumbnails: FilterThumbnails
    /// Requests for a still, each answered by the next still written.
    private let stillsWanted = Locked<[WebServer.Request]>([])
    /// `record` requests, each answered when its recording starts, is saved or fails.
    private let recordingsWanted = Locked<[WebServer.Request]>([])
    /// Whether frames flow now (the server pauses the camera while nobody watches).
    private let pictureFlows: @Sendable () -> Bool
    /// The pipeline's one `filtercam`, whose filter the page shows when it opens (nil: none,
    /// or several).
    private let filterElement: SendableElement?
    /// Why the server stopped serving, once it has (the page says so, rather than "the
    /// server does not answer" a moment later).
    private let ended = Locked<String?>(nil)

    /// `previewPicture`: the photo the filter buttons show through each filter.
    /// `pictureFlows`: whether the camera runs now; commands that need a frame (a still,
    /// a countdown, a recording) are refused while it does not, rather than left waiting.
    public init(session: PipelineSession, previewPicture: String?, pictureFlows: @escaping @Sendable () -> Bool = { true }) {
        self.session = session.inbox
        self.pictureFlows = pictureFlows
        let stages = session.filterStages
        filterElement = stages.count == 1 ? SendableElement(pointer: stages[0].element) : nil
        thumbnails = FilterThumbnails(picture: previewPicture)
        session.onStill = { [weak self] still in self?.stillDone(still) }
        session.onRecording = { [weak self] news in self?.recordingNews(news) }
    }

    /// The server stops serving, for `reason`: what the page shows from its next look at
    /// /state, and the answer to any command from now on.
    public func serverEnds(_ reason: String) {
        ended.withLock { $0 = reason }
    }

    public func handle(_ request: WebServer.Request) {
        // HEAD is GET without the body (RFC 9110; libsoup leaves the body out).
        let method = request.method == "HEAD" ? "GET" : request.method
        switch (method, request.path) {
        case ("GET", "/"):
            request.reply(WebServer.Response(status: 200, contentType: "text/html; charset=utf-8", body: Self.page))
        case ("GET", "/favicon.ico"):
            // No icon, and no 404 for it: that was an error in every page's console.
            request.reply(WebServer.Response(status: 204, contentType: "image/x-icon", body: []))
        case ("GET", "/page.js"):
            request.reply(WebServer.Response(status: 200, contentType: "text/javascript; charset=utf-8", body: PackageResources.page_js))
        case (_, let path) where path.hasPrefix("/preview/") && path.hasSuffix(".png") && method != "GET":
            request.reply(.text(405, "\(request.method) is not for \(path): the filters' pictures are GET"))
        case ("GET", let path) where path.hasPrefix("/preview/") && path.hasSuffix(".png"):
            let id = String(path.dropFirst("/preview/".count).dropLast(".png".count))
            thumbnails.png(for: id) { png in
                request.reply(png.map { WebServer.Response(status: 200, contentType: "image/png", body: $0) }
                              ?? .text(404, "no filter \(id.quotedForMessage)"))
            }
        case ("GET", "/state") where ended.withLock({ $0 }) != nil:
            request.reply(.text(200, "ended: \(ended.withLock { $0 } ?? "")"))
        case ("POST", "/control") where ended.withLock({ $0 }) != nil:
            request.reply(.text(503, ended.withLock { $0 } ?? ""))
        case ("GET", "/state"):
            // What the page shows as it opens and keeps up with (a filter set from the
            // terminal or another page): the chain, and the button that stands for it.
            let filter = filterElement.flatMap { Pipeline.property($0.pointer, "filter") } ?? ""
            let chain = filter.isEmpty ? "none" : filter
            // A chain of several filters has no button: its first filter's was shown pressed,
            // and a click on it (which sends `filter none`) threw the whole chain away.
            let parsed = try? FilterChain.parse(chain, registry: .shared)
            let picked = parsed.flatMap { $0.steps.count > 1 ? nil : FilterRegistry.shared.pickableID(of: $0) } ?? ""
            // And what the buttons and keys toggle, so every page shows it (a Record pressed
            // to start stopped another page's recording: nothing said one ran).
            let state = { (name: String) in self.filterElement.flatMap { Pipeline.property($0.pointer, name) } ?? "" }
            request.reply(.text(200, "filter: \(chain)\npicked: \(picked)\nrecording: \(state("record"))\n"
                                     + "gallery: \(state("gallery"))\norientation: \(state("orientation"))"))
        case ("POST", "/control"):
            control(request)
        case (_, "/"), (_, "/page.js"), (_, "/control"), (_, "/state"):
            request.reply(.text(405, "\(request.method) is not for \(request.path): the page is GET /, commands are POST /control"))
        default:
            request.reply(.text(404, "nothing at \(request.path.quotedForMessage): the page is /, WHEP is /whep"))
        }
    }

    /// Commands that act on the server rather than the picture: only its terminal gives them.
    static func refusal(of command: ControlCommand) -> String? {
        switch command {
        case .quit: "'quit' stops the server: only its terminal can"
        case .help: "'help' prints on the server's terminal; the page's controls are the commands"
        case .on(let element, let command):
            "'\(command.line) \(element)' aims the command at an element ('snapshot NAME'): only the server's terminal can; "
                + "the page drives the served picture ('\(command.line)' alone)"
        case .set: "'set' changes any property of any element (file names too): only the server's terminal can"
        case .camera: "'camera' opens devices and files on the server: only its terminal can"
        case .filter(let chain) where namesAFile(chain):
            "a filter setting that names a file ('lut file=…') reads files on the server: only its terminal can; "
                + "the page picks filters by id, the looks folder's too (look:NAME)"
        default: nil
        }
    }

    /// Whether a chain gives a file parameter (a look's `file=`). Found in the words as
    /// written, before anything parses the chain: checking a chain loads its files.
    private static func namesAFile(_ chain: String) -> Bool {
        let registry = FilterRegistry.shared
        let fileParameters = Set(registry.ids.flatMap { id in
            (registry.descriptor(id: id)?.parameters ?? []).compactMap { p -> String? in
                if case .text = p.kind { p.name } else { nil }
            }
        })
        let words = chain.split(whereSeparator: { $0 == "," || $0.isWhitespace || $0 == "\"" || $0 == "'" })
        return words.contains { word in fileParameters.contains { word.hasPrefix("\($0)=") } }
    }

    private func control(_ request: WebServer.Request) {
        // A command is one line of text: a control byte (a NUL) is no part of one.
        if request.text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) {
            return request.reply(.text(400, "a command is one line of text; this body holds control characters"))
        }
        let parsed: ControlCommand
        do {
            parsed = try ControlCommand(line: request.text)
        } catch {
            return request.reply(.text(400, "\(error)"))
        }
        if let refusal = Self.refusal(of: parsed) { return request.reply(.text(403, refusal)) }
        let command = placed(parsed)
        // `record` while a recording runs stops it: no frame needed (the camera may have
        // paused since, the last viewer gone).
        let stops = command == .record && filterElement.map { Pipeline.property($0.pointer, "record") == "true" } == true
        let needsPicture = command.needsAPicture && !stops
        if needsPicture && !pictureFlows() {
            return request.reply(.text(503, PipelineSession.refusalWhilePaused(command)))
        }
        let reply: PipelineSession.Reply = { [weak self] result in
            switch result {
            case .success where command == .snapshot:
                self?.stillsWanted.withLock { $0.append(request) }
            case .success where command == .record:
                self?.recordingsWanted.withLock { $0.append(request) }
            case .success(let said):
                request.reply(.text(200, said ?? command.line))
            case .failure(let error):
                request.reply(.text(409, "\(error)"))
            }
        }
        // The rest are property changes: they take effect at once, frames or none.
        if needsPicture { session.enqueue(command, reply: reply) } else { session.enqueueNeedingNoPicture(command, reply: reply) }
    }

    /// A click on the page's picture as the window takes it: with the gallery open it
    /// picks the thumbnail under it; with `lens-crop` the picture shown is the lens, so the
    /// point is placed within it in the whole picture, where the lens is defined.
    private func placed(_ command: ControlCommand) -> ControlCommand {
        guard case .lensAt(let x, let y) = command, let element = filterElement?.pointer else { return command }
        if Pipeline.property(element, "gallery") == "true" { return .pickAt(x: x, y: y) }
        guard Pipeline.property(element, "lens-crop") == "true",
              let lens = try? LensRect(parsing: Pipeline.property(element, "lens") ?? "") else { return command }
        return .lensAt(x: lens.x + x * lens.w, y: lens.y + y * lens.h)
    }

    private func recordingNews(_ news: PipelineSession.RecordingNews) {
        guard let request = recordingsWanted.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
        request.reply(.text(news.ok ? 200 : 500, news.line))
    }

    private func stillDone(_ still: PipelineSession.Still) {
        guard let request = stillsWanted.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
        guard still.saved, let jpeg = FileManager.default.contents(atPath: still.path) else {
            return request.reply(.text(500, "the still was not written: \(still.reason ?? "it cannot be read")"))
        }
        request.reply(WebServer.Response(status: 200, contentType: "image/jpeg", body: [UInt8](jpeg),
                                         filename: URL(fileURLWithPath: still.path).lastPathComponent))
    }

    /// The page with one button per filter a user can pick (not a bare `lut`, which needs
    /// a file), its picture beside its title; a button sets the chain its picture shows
    /// (`exposure ev=1`: at its defaults exposure changes nothing), as the gallery does.
    static let page: [UInt8] = {
        let buttons = FilterRegistry.shared.pickable.map { d in
            """
                <button type="button" data-filter="\(d.id.escapedForHTML)" data-chain="\(FilterShowcase.chain(for: d.id).escapedForHTML)" title="\(d.summary.escapedForHTML)" aria-pressed="false">\
            <img src="/preview/\(d.id.escapedForHTML).png" alt=""><span>\(d.title.escapedForHTML)</span></button>
            """
        }
        let template = String(decoding: PackageResources.page_html, as: UTF8.self)
        return Array(template.replacingOccurrences(of: "<!-- filters -->", with: buttons.joined(separator: "\n")).utf8)
    }()
}

extension String {
    /// Safe inside HTML text and attribute values.
    var escapedForHTML: String {
        var out = ""
        for c in self {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
