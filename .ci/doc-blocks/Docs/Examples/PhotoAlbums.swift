// Docs/Examples/PhotoAlbums.md's examples compile with the example's own sources (not its main.swift); these are
// the values they use.
import LazyPromise

let source = AlbumSource.recorded(latency: .zero)
let completion: @Sendable (Result<[UserWithAlbums], AlbumsError>) -> Void = { _ in }
