/// Where a promise was made, kept in debug builds for diagnostics and empty (zero bytes) in release builds.
@usableFromInline
struct _Site: Sendable, CustomStringConvertible {
  #if DEBUG
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt
  #endif

  @inlinable
  init(file: StaticString, line: UInt) {
    #if DEBUG
      self.file = file
      self.line = line
    #endif
  }

  @usableFromInline
  var description: String {
    #if DEBUG
      return "\(file):\(line)"
    #else
      return "an unknown location (build in debug for creation sites)"
    #endif
  }
}
