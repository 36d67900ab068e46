import LazyPromise

/// The three ways the example builds users with their albums with their photos.
enum Version: String, CaseIterable, Sendable {
  /// Nested completion handlers: users, then albums, then photos, each inside the previous callback.
  case callbacks
  /// A sequential promise chain: photos, then albums, then users, one `then` per step, no nesting.
  case chain
  /// A parallel `zip`: the three requests at once, merged when all three have answered.
  case zip

  /// Runs this version once and hands `completion` its result.
  func run(from source: AlbumSource, completion: @escaping @Sendable (Result<[UserWithAlbums], AlbumsError>) -> Void) {
    switch self {
    case .callbacks: usersWithAlbumsNested(from: source, completion: completion)
    case .chain: usersWithAlbumsChained(from: source).run(completion)
    case .zip: usersWithAlbumsZipped(from: source).run(completion)
    }
  }
}

/// Version 1, "callback hell": each request starts inside the previous one's callback, and every level checks
/// for its own error.
func usersWithAlbumsNested(
  from source: AlbumSource, completion: @escaping @Sendable (Result<[UserWithAlbums], AlbumsError>) -> Void
) {
  fetch(.users, from: source) { usersAnswer in
    switch usersAnswer.flatMap(decodeUsers) {
    case .failure(let error):
      completion(.failure(error))
    case .success(let users):
      fetch(.albums, from: source) { albumsAnswer in
        switch albumsAnswer.flatMap(decodeAlbums) {
        case .failure(let error):
          completion(.failure(error))
        case .success(let albums):
          fetch(.photos, from: source) { photosAnswer in
            switch photosAnswer.flatMap(decodePhotos) {
            case .failure(let error):
              completion(.failure(error))
            case .success(let photos):
              completion(.success(merge(users, albums, photos)))
            }
          }
        }
      }
    }
  }
}

/// Version 2, a sequential chain: one step per line; the first failure skips the rest and arrives typed.
func usersWithAlbumsChained(from source: AlbumSource) -> Promise<[UserWithAlbums], AlbumsError> {
  photos(from: source)
    .then { photos in albums(from: source).map { albums in attach(photos, to: albums) } }
    .then { albums in users(from: source).map { users in attach(albums, to: users) } }
}

/// Version 3, in parallel: the three requests start together; the merge runs when the last one answers, and the
/// first failure cancels the others.
func usersWithAlbumsZipped(from source: AlbumSource) -> Promise<[UserWithAlbums], AlbumsError> {
  zip(users(from: source), albums(from: source), photos(from: source))
    .map { users, albums, photos in merge(users, albums, photos) }
}
