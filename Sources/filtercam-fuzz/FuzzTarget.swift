import Foundation

/// The fuzz targets: what each one feeds and the properties it checks.
enum FuzzTarget: String, CaseIterable {
    /// The filter-chain syntax (`filter=` and `fc*` elements).
    case chain
    /// The lens rectangle `x,y,w,h`.
    case lens
    /// The live command protocol (`filtercam launch` stdin).
    case command
    /// Pipeline files: comments and `${NAME:-default}` substitution.
    case pipelineFile = "pipeline-file"
    /// Frames of any size, stride and format through orientation, zoom, lens and filters.
    case frame
    /// Text properties of the `filtercam` element, set as gst-launch would.
    case property
    /// `.cube` look files.
    case cube

    nonisolated(unsafe) static var selected: FuzzTarget = .chain

    /// The target named by a `--target=NAME` argument.
    static func chosen(by arguments: [String]) -> FuzzTarget? {
        arguments.lazy.filter { $0.hasPrefix("--target=") }
            .compactMap { FuzzTarget(rawValue: String($0.dropFirst("--target=".count))) }.first
    }

    static func usage() {
        let names = allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("usage: filtercam-fuzz --target=NAME [libFuzzer flags] [corpus folders or files]\n  targets: \(names)\n".utf8))
    }

    /// One-time set-up before the first input.
    func prepare() {
        if self == .property { PropertyTarget.prepare() }
    }

    func run(_ input: UnsafeRawBufferPointer) {
        switch self {
        case .chain: TextTargets.chain(input)
        case .lens: TextTargets.lens(input)
        case .command: TextTargets.command(input)
        case .pipelineFile: TextTargets.pipelineFile(input)
        case .frame: FrameTarget.run(input)
        case .property: PropertyTarget.run(input)
        case .cube: CubeTarget.run(input)
        }
    }
}
