// Why: the stopword package ships no type declarations; only the lists this toolkit reads are declared.
declare module "stopword" {
	const lists: Record<string, readonly string[] | undefined>;
	export = lists;
}
