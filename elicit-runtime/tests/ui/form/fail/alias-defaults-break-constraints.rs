use elicit_runtime::{ElicitEnum, ElicitForm};

#[derive(ElicitEnum)]
enum Color {
    Red,
    Blue,
}

type Guests = u8;
type Tags = Vec<Color>;
type Name = String;

#[derive(ElicitForm)]
#[elicit(message = "Alias defaults")]
struct AliasDefaults {
    #[elicit(minimum = 1, maximum = 8, default = 100)]
    guests: Guests,
    #[elicit(max_items = 1, default = ["Red", "Red", "Blue"])]
    tags: Tags,
    #[elicit(max_length = 2, default = "too long")]
    name: Name,
}

fn main() {}
