/// A JSONPlaceholder user (`/users`); the example reads the fields it prints and ignores the rest.
struct User: Decodable, Equatable, Sendable {
  var id: Int
  var name: String
  var username: String
  var email: String
}

/// A JSONPlaceholder album (`/albums`), owned by the user `userId`.
struct Album: Decodable, Equatable, Sendable {
  var userId: Int
  var id: Int
  var title: String
}

/// A JSONPlaceholder photo (`/photos`), in the album `albumId`.
struct Photo: Decodable, Equatable, Sendable {
  var albumId: Int
  var id: Int
  var title: String
  var url: String
  var thumbnailUrl: String
}

/// An album with its photos.
struct AlbumWithPhotos: Equatable, Sendable {
  var album: Album
  var photos: [Photo]
}

/// A user with their albums, each with its photos: what every version of the example builds.
struct UserWithAlbums: Equatable, Sendable {
  var user: User
  var albums: [AlbumWithPhotos]
}

/// Gives each album its photos, in the photos' order; photos of unknown albums are dropped.
func attach(_ photos: [Photo], to albums: [Album]) -> [AlbumWithPhotos] {
  let byAlbum = Dictionary(grouping: photos, by: \.albumId)
  return albums.map { AlbumWithPhotos(album: $0, photos: byAlbum[$0.id] ?? []) }
}

/// Gives each user their albums, in the albums' order; albums of unknown users are dropped.
func attach(_ albums: [AlbumWithPhotos], to users: [User]) -> [UserWithAlbums] {
  let byUser = Dictionary(grouping: albums, by: \.album.userId)
  return users.map { UserWithAlbums(user: $0, albums: byUser[$0.id] ?? []) }
}

/// Users with their albums with their photos.
func merge(_ users: [User], _ albums: [Album], _ photos: [Photo]) -> [UserWithAlbums] {
  attach(attach(photos, to: albums), to: users)
}

/// The lines the tool prints: the totals, then one line per user.
///
/// ```
/// 10 users, 100 albums, 5000 photos
/// Leanne Graham (Bret): 10 albums, 500 photos
/// ```
func summary(_ users: [UserWithAlbums]) -> [String] {
  let albums = users.reduce(0) { $0 + $1.albums.count }
  let photos = users.reduce(0) { total, user in user.albums.reduce(total) { $0 + $1.photos.count } }
  let totals = "\(users.count) users, \(albums) albums, \(photos) photos"
  return [totals]
    + users.map { entry in
      let count = entry.albums.reduce(0) { $0 + $1.photos.count }
      return "\(entry.user.name) (\(entry.user.username)): \(entry.albums.count) albums, \(count) photos"
    }
}
