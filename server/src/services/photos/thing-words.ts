/**
 * The words a family types for the things found in photos (media/things.ts), each to the COCO
 * labels it means: plurals, a few everyday names ("bike", "puppy", "plane") and groups ("pets",
 * "animals"). A whole word only, as folded by the search ("dogs", not "do"): a word's start
 * would find cats for "ca".
 */
const WORDS: Record<string, readonly string[]> = {};

function words(labels: readonly string[], ...names: string[]): void {
  for (const name of names) WORDS[name] = [...(WORDS[name] ?? []), ...labels];
}

words(['dog'], 'dog', 'dogs', 'puppy', 'puppies', 'doggy', 'doggie');
words(['cat'], 'cat', 'cats', 'kitten', 'kittens', 'kitty');
words(['bird'], 'bird', 'birds');
words(['horse'], 'horse', 'horses', 'pony', 'ponies');
words(['sheep'], 'sheep', 'lamb', 'lambs');
words(['cow'], 'cow', 'cows', 'cattle');
words(['elephant'], 'elephant', 'elephants');
words(['bear'], 'bear', 'bears');
words(['zebra'], 'zebra', 'zebras');
words(['giraffe'], 'giraffe', 'giraffes');
words(['dog', 'cat'], 'pet', 'pets');
words(['bird', 'cat', 'dog', 'horse', 'sheep', 'cow', 'elephant', 'bear', 'zebra', 'giraffe'], 'animal', 'animals');
words(['bicycle'], 'bicycle', 'bicycles', 'bike', 'bikes', 'cycling');
words(['motorcycle'], 'motorcycle', 'motorcycles', 'motorbike', 'motorbikes', 'scooter');
words(['car'], 'car', 'cars');
words(['bus'], 'bus', 'buses', 'coach');
words(['truck'], 'truck', 'trucks', 'lorry', 'lorries');
words(['train'], 'train', 'trains');
words(['airplane'], 'airplane', 'airplanes', 'aeroplane', 'aeroplanes', 'plane', 'planes');
words(['boat'], 'boat', 'boats', 'ship', 'ships', 'sailing');
words(['umbrella'], 'umbrella', 'umbrellas');
words(['kite'], 'kite', 'kites');
words(['skis'], 'ski', 'skis', 'skiing');
words(['snowboard'], 'snowboard', 'snowboards', 'snowboarding');
words(['surfboard'], 'surf', 'surfboard', 'surfboards', 'surfing');
words(['skateboard'], 'skateboard', 'skateboards', 'skateboarding');
words(['sports ball'], 'ball', 'balls', 'football');
words(['cake'], 'cake', 'cakes');
words(['pizza'], 'pizza', 'pizzas');
words(['teddy bear'], 'teddy', 'teddies');

/** The labels a folded search word stands for (none for most words). */
export function thingLabelsOf(word: string): readonly string[] {
  return Object.hasOwn(WORDS, word) ? WORDS[word]! : [];
}
