//! An arena with no parameters: fixed sizes.

use arena::Arena;

#[derive(Arena)]
struct Fixed {
    #[arena(size = 1024)]
    a: usize,
    #[arena(shape = [16, 16], dtype = f32)]
    b: usize,
}

fn main() {
    let f = Fixed::from_config();
    assert_eq!(f.total_bytes(), 1024 + 1024);
}
