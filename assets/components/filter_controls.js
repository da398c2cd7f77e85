// Source and confidence filters and the sort above the memory list, as one element: the options and
// the choice are data (JSON strings in plain ASCII: see ui/components/page_json.py), the three fields
// are drawn here, and a new choice is one "change" event with all three values. On a phone the fields
// fold behind "Filter & sort" (assets/app.css); opening them is the browser's own business.
export default {
  template: `
    <div class="mr-filters" :class="{ 'mr-filters-open': open }">
      <q-btn flat dense no-caps color="brand" icon="tune" label="Filter & sort" class="mr-filters-toggle"
             :aria-expanded="open ? 'true' : 'false'" @click="open = !open" />
      <q-select class="mr-filter" outlined dense options-dense color="brand" multiple use-chips emit-value
                map-options label="Source" :options="choices.sources" :model-value="value.sources"
                @update:model-value="(v) => choose('sources', v)" />
      <q-select class="mr-filter" outlined dense options-dense color="brand" multiple use-chips emit-value
                map-options label="Confidence" :options="choices.confidences" :model-value="value.confidences"
                @update:model-value="(v) => choose('confidences', v)" />
      <q-select class="mr-filter" outlined dense options-dense color="brand" emit-value map-options
                label="Sort by" :options="choices.sorts" :model-value="value.sort"
                @update:model-value="(v) => choose('sort', v)" />
    </div>
  `,
  props: {
    options: String,
    chosen: String,
  },
  data() {
    return { open: false, value: JSON.parse(this.chosen) };
  },
  computed: {
    choices() {
      return JSON.parse(this.options);
    },
  },
  watch: {
    // The server's choice (after "Clear filters"): the fields show it.
    chosen(value) {
      this.value = JSON.parse(value);
    },
  },
  methods: {
    choose(key, picked) {
      this.value = { ...this.value, [key]: key === "sort" ? picked : picked || [] };
      this.$emit("change", this.value);
    },
  },
};
