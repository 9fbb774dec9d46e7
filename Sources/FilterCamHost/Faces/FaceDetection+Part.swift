/// Face detection as a part of `filtercam`: its properties found by name.
extension FaceDetection: ElementPart {
    var properties: [ElementProperty] { Self.properties }

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let index = Self.properties.firstIndex(where: { $0.name == name }) else { return }
        setProperty(index, value)
    }

    func get(_ name: String) -> PropertyValue {
        getProperty(Self.properties.firstIndex { $0.name == name }!)
    }
}
