// The type chips above the memory list as one element: each chip is data (props.chips: value, label,
// pressed), drawn here as a toggle button; a click sends "choose" with the chip's value.
export default {
  template: `
    <div class="mr-chips" role="group" aria-label="Show memories of type">
      <q-btn v-for="chip in chips" :key="chip.value" no-caps unelevated dense :label="chip.label"
             class="mr-chip" :class="{ 'mr-chip-on': chip.pressed }" :aria-pressed="chip.pressed ? 'true' : 'false'"
             @click="$emit('choose', { value: chip.value })" />
    </div>
  `,
  props: {
    chips: Array,
  },
};
